/**
 * A change never hangs (docs/deployment.md, "Bounds"). Every change gets a deadline when it
 * arrives: CHANGE_DEADLINE_MS from then at the node the client called. A regional node sends it with
 * the forwarded request, on the primary's clock, and headquarters refuses to start a change whose
 * deadline has passed, so nothing executes after its client was answered. Headquarters' primary
 * transactions run under the same deadline (db/replicated.ts): past it, a transaction that has not
 * begun to commit rolls back ("not done"), one that has is reported as of unknown outcome.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { AppError } from "../http/errors.ts";

/** The longest a change takes to answer, end to end, when headquarters or the primary cannot be reached. */
export const CHANGE_DEADLINE_MS = 5_000;
/** Kept from the deadline for the answer's own way back from headquarters. */
export const FORWARD_MARGIN_MS = 250;
/** The forwarded change's deadline: ms since the epoch on the primary's clock. */
export const DEADLINE_HEADER = "x-console-deadline";

const deadlines = new AsyncLocalStorage<number>();

/** Runs `fn` with a deadline (ms since the epoch on this node's clock) for the writes it makes. */
export function withDeadline<T>(deadlineMs: number, fn: () => Promise<T>): Promise<T> {
  return deadlines.run(deadlineMs, fn);
}

/** The deadline of the change being served, on this node's clock; undefined outside a change. */
export function currentDeadline(): number | undefined {
  return deadlines.getStore();
}

const RETRY_ADVICE = "Retry with the same Idempotency-Key: it answers the first outcome and never acts twice.";

/** The change may have been executed: its client must not be told it was not. */
export function outcomeUnknownError(): AppError {
  return new AppError(
    "unavailable",
    `The outcome is unknown: headquarters may have executed this change, but its answer did not ` +
      `arrive in time. ${RETRY_ADVICE}`,
    { extra: { reason: "outcome_unknown", retry: "retry with the same Idempotency-Key" } },
  );
}

/** Headquarters received the change after its client had stopped waiting: it did not execute it. */
export function deadlinePassedError(): AppError {
  return new AppError(
    "unavailable",
    "Not done: the change reached headquarters after its deadline and was not executed. You may submit it again.",
    { extra: { reason: "deadline_passed" } },
  );
}

/** Thrown inside a transaction whose deadline passed before it began to commit: it rolls back. */
export class DeadlinePassed extends Error {
  constructor() {
    super("the change's deadline passed before it committed");
  }
}
