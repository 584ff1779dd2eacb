/**
 * Writes on the primary that never hang (topology/deadline.ts): every HTTP request to the primary
 * is aborted at the change's deadline (or PRIMARY_REQUEST_TIMEOUT_MS outside a change), and a
 * transaction whose deadline passes before it begins to commit rolls back, so "not done" is true.
 * One that fails while committing may have committed: its client is told the outcome is unknown.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Mutex } from "./mutex.ts";
import { type Db, statementsOf, type Tx } from "./database.ts";
import type { HistoryMarks } from "../topology/history.ts";
import {
  CHANGE_DEADLINE_MS,
  currentDeadline,
  DeadlinePassed,
  outcomeUnknownError,
} from "../topology/deadline.ts";
import { isStatementError } from "../topology/replication.ts";
import { AppError } from "../http/errors.ts";

/** A request to the primary outside any change (request log, session touches) gives up after this. */
export const PRIMARY_REQUEST_TIMEOUT_MS = 10_000;
/** The least time a request is given, so that one started just before the deadline can still fail cleanly. */
const MIN_REQUEST_MS = 50;

function remainingMs(): number {
  const deadline = currentDeadline();
  return deadline === undefined ? PRIMARY_REQUEST_TIMEOUT_MS : Math.max(MIN_REQUEST_MS, deadline - Date.now());
}

/** Aborted at its transaction's deadline: one timer per transaction, not one per request. */
const transactionSignals = new AsyncLocalStorage<AbortSignal>();

/**
 * The primary client's fetch: each request aborted at the change's deadline (the client passes no
 * signal of its own).
 */
export const boundedFetch = (input: Request | URL | string, init?: RequestInit): Promise<Response> =>
  fetch(input, { ...init, signal: transactionSignals.getStore() ?? AbortSignal.timeout(remainingMs()) });

interface TransactionParts {
  mutex: Mutex;
  write: Db;
  marks: HistoryMarks;
  /** The "changes are paused" 503: the change was not done, and may be submitted again. */
  notDone: () => AppError;
  /** The primary no longer holds this replica's history: the change is refused, and the replica rebuilt. */
  diverged: () => AppError;
}

/**
 * One write transaction on the primary, answered by its deadline: its result; a 503 "not done" when
 * it rolled back or never began; a 503 outcome_unknown when it failed or ran out of time while committing.
 */
export function boundedTransaction<T>(parts: TransactionParts, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const deadline = currentDeadline() ?? Date.now() + CHANGE_DEADLINE_MS;
  let committing = false;
  const body = async (tx: Tx) => {
    const statements = statementsOf(tx);
    const { statements: marking, head } = await parts.marks.forTransaction();
    for (const [i, mark] of marking.entries()) {
      const inserted = await statements.run(mark.sql, mark.args);
      if (i === 0 && head !== null && inserted === 0) throw parts.diverged();
    }
    if (head !== null) parts.marks.checkedByWrite(head);
    const result = await fn(tx);
    if (Date.now() >= deadline) throw new DeadlinePassed();
    committing = true;
    return result;
  };
  const requests = new AbortController();
  const run = parts.mutex.run(() => {
    if (Date.now() >= deadline) throw new DeadlinePassed();
    return transactionSignals.run(requests.signal, () => parts.write.transaction(body));
  }).catch((error) => {
    if (error instanceof AppError || isStatementError(error)) throw error;
    if (error instanceof DeadlinePassed) throw parts.notDone();
    if (committing) throw outcomeUnknownError();
    throw error;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      requests.abort(new DOMException("the change's deadline passed", "TimeoutError"));
      reject(committing ? outcomeUnknownError() : parts.notDone());
    }, deadline - Date.now());
  });
  // The transaction goes on after an answer by deadline: it rolls back at its next step, or commits
  // as the outcome_unknown answer allows. Its own failure is then no one's to hear.
  run.catch(() => {});
  return Promise.race([run, expired]).finally(() => clearTimeout(timer));
}
