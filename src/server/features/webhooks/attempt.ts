/** One attempt of one delivery: build the signed body, send it, log the answer, decide what is next. */
import {
  MAX_WEBHOOK_BODY_BYTES,
  nextAttemptAfterFailure,
  type RetryPolicy,
} from "../../../domain/webhooks.ts";
import { statementsOf } from "../../db/database.ts";
import type { AppDeps } from "../../http/context.ts";
import type { OutboundPolicy } from "../../http/outbound.ts";
import { type AttemptOutcome, postSigned } from "./sender.ts";
import { signedHeaders } from "./signing.ts";

/** A delivery leased to this worker until `claimedUntil` (worker.ts). */
export interface Claim {
  id: string;
  claimedUntil: string;
}

interface AttemptOptions {
  retryPolicy: RetryPolicy;
  attemptTimeoutMs: number;
  outbound: OutboundPolicy;
}

interface DeliveryToSend {
  url: string;
  secretEncrypted: string;
  eventId: string;
  kind: string;
  data: string;
  occurredAt: string;
  roundAttempts: number;
  attemptCount: number;
  [column: string]: unknown;
}

/** The JSON body: the Standard Webhooks envelope around the event's data. */
export function deliveryBody(row: Pick<DeliveryToSend, "kind" | "occurredAt" | "data">): string {
  return JSON.stringify({ type: row.kind, timestamp: row.occurredAt, data: JSON.parse(row.data) });
}

export async function attemptDelivery(deps: AppDeps, claim: Claim, options: AttemptOptions): Promise<void> {
  const row = await deps.db.statements.get<DeliveryToSend>(
    `SELECT w.url, w.secret_encrypted AS secretEncrypted, e.id AS eventId, e.kind, e.data,
       e.occurred_at AS occurredAt, d.round_attempts AS roundAttempts, d.attempt_count AS attemptCount
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id
     WHERE d.id = ?`,
    [claim.id],
  );
  if (row === undefined) return;
  const startedAt = new Date();
  const body = deliveryBody(row);
  // An oversized event never fits, nor does a secret that no longer decrypts: they fail at once.
  const unsendable = new TextEncoder().encode(body).byteLength > MAX_WEBHOOK_BODY_BYTES
    ? `The event is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes and is not sent`
    : null;
  const secret = unsendable === null
    ? await deps.secrets.decrypt(row.secretEncrypted).catch(() => null)
    : null;
  const refusal = unsendable ??
    (secret === null ? "The signing secret cannot be decrypted with this server's secrets key" : null);
  const outcome: AttemptOutcome = refusal !== null || secret === null
    ? { succeeded: false, statusCode: null, responseExcerpt: null, error: refusal, durationMs: 0 }
    : await postSigned(
      row.url,
      body,
      signedHeaders(secret, row.eventId, Math.floor(startedAt.getTime() / 1000), body),
      { policy: options.outbound, timeoutMs: options.attemptTimeoutMs },
    );
  await recordAttempt(deps, claim, row, startedAt, outcome, refusal === null ? options.retryPolicy : null);
}

async function recordAttempt(
  deps: AppDeps,
  claim: Claim,
  row: DeliveryToSend,
  startedAt: Date,
  outcome: AttemptOutcome,
  retryPolicy: RetryPolicy | null,
): Promise<void> {
  const now = new Date();
  const succeeded = outcome.succeeded;
  const next = succeeded || retryPolicy === null
    ? null
    : nextAttemptAfterFailure(row.roundAttempts + 1, retryPolicy, now);
  const status = succeeded ? "succeeded" : next === null ? "failed" : "pending";
  await deps.db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    await statements.run(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code,
         response_excerpt, error, succeeded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        claim.id,
        row.attemptCount + 1,
        startedAt.toISOString(),
        outcome.durationMs,
        outcome.statusCode,
        outcome.responseExcerpt,
        outcome.error,
        succeeded ? 1 : 0,
      ],
    );
    // Only while this turn's lease holds: a redelivery or a removal since then has the last word.
    await statements.run(
      `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, claimed_until = NULL,
         attempt_count = attempt_count + 1, round_attempts = round_attempts + 1, last_attempt_at = ?,
         completed_at = ? WHERE id = ? AND claimed_until = ?`,
      [
        status,
        next?.toISOString() ?? null,
        now.toISOString(),
        status === "pending" ? null : now.toISOString(),
        claim.id,
        claim.claimedUntil,
      ],
    );
  });
}
