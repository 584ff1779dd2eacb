/**
 * One Idempotency-Key per submission of a form that moves money or asks a provider (docs/ledger.md,
 * "Idempotency-Key"). Sending the same request again after its outcome stayed unknown (no answer
 * came, the server answered 503 or 504, or 409 because the first is still under way) reuses the
 * key, so the server answers what it did the first time instead of doing it twice. A success, any
 * other answer, or a changed form (another request) starts a new submission with a fresh key.
 */
import { useMemo, useRef } from "react";
import { ApiError, apiJson } from "./api.ts";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** Answers after which the request may or may not have been carried out. */
const UNKNOWN_OUTCOME_STATUSES: ReadonlySet<number> = new Set([503, 504]);
const IN_PROGRESS_REASON = "idempotency_in_progress";

function reasonOf(error: ApiError): string | null {
  try {
    const body = JSON.parse(error.bodyText);
    return typeof body?.reason === "string" ? body.reason : null;
  } catch {
    return null;
  }
}

/** Whether a failed submission may have been carried out without its answer reaching the screen. */
export function outcomeUnknown(error: Error): boolean {
  // No answer at all: the request may have been carried out before the connection failed.
  if (!(error instanceof ApiError)) return true;
  if (UNKNOWN_OUTCOME_STATUSES.has(error.status)) return true;
  return error.status === 409 && reasonOf(error) === IN_PROGRESS_REASON;
}

export interface Submission {
  /** Sends a JSON request with the submission's key: the same request again keeps it, another gets a new one. */
  send<T>(method: string, url: string, body: unknown): Promise<T>;
  /** After an answer (none: a success): the next request is a new submission unless this outcome is unknown. */
  settle(error?: Error): void;
}

export function useSubmission(): Submission {
  const current = useRef<{ request: string; key: string } | null>(null);
  return useMemo(() => ({
    send<T>(method: string, url: string, body: unknown) {
      const request = JSON.stringify([method, url, body]);
      if (current.current?.request !== request) current.current = { request, key: crypto.randomUUID() };
      return apiJson<T>(method, url, body, { [IDEMPOTENCY_KEY_HEADER]: current.current.key });
    },
    settle(error?: Error) {
      if (error === undefined || !outcomeUnknown(error)) current.current = null;
    },
  }), []);
}
