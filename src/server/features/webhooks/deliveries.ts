/** The delivery log of a webhook, and redelivery by hand (audited). */
import { type Actor, recordAudit } from "../../audit/trail.ts";
import { type Database, statementsOf } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { AppError, notFound } from "../../http/errors.ts";
import type { Delivery, DeliveryAttempt } from "./schemas.ts";
import { findWebhook } from "./service.ts";

export const DELIVERY_AUDIT_ENTITY_TYPE = "webhook_delivery";

type DeliveryRow = Omit<Delivery, "attempts"> & { claimedUntil: string | null; [column: string]: unknown };

interface AttemptRow {
  deliveryId: string;
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  succeeded: number;
  [column: string]: unknown;
}

const DELIVERY_COLUMNS = `d.id, d.webhook_id AS webhookId, d.event_id AS eventId, d.event_kind AS eventKind,
  e.summary AS eventSummary, d.status, d.attempt_count AS attemptCount, d.next_attempt_at AS nextAttemptAt,
  d.claimed_until AS claimedUntil, d.created_at AS createdAt, d.last_attempt_at AS lastAttemptAt,
  d.completed_at AS completedAt`;

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): Delivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventKind: row.eventKind,
    eventSummary: row.eventSummary,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    completedAt: row.completedAt,
    attempts: attempts.map((attempt): DeliveryAttempt => ({
      attempt: attempt.attempt,
      startedAt: attempt.startedAt,
      durationMs: attempt.durationMs,
      statusCode: attempt.statusCode,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
      succeeded: Boolean(attempt.succeeded),
    })),
  };
}

const ATTEMPT_COLUMNS =
  `delivery_id AS deliveryId, attempt, started_at AS startedAt, duration_ms AS durationMs,
  status_code AS statusCode, response_excerpt AS responseExcerpt, error, succeeded`;

/** The webhook's newest deliveries first, each with its attempts in order. */
export async function listDeliveries(
  statements: Statements,
  webhookId: string,
  limit: number,
): Promise<Delivery[]> {
  await findWebhook(statements, webhookId);
  const rows = await statements.all<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
     WHERE d.webhook_id = ? ORDER BY d.created_at DESC, e.seq DESC LIMIT ?`,
    [webhookId, limit],
  );
  const attempts = await statements.all<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM webhook_delivery_attempts WHERE delivery_id IN (
       SELECT d.id FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
       WHERE d.webhook_id = ? ORDER BY d.created_at DESC, e.seq DESC LIMIT ?)
     ORDER BY seq`,
    [webhookId, limit],
  );
  return rows.map((row) => toDelivery(row, attempts.filter((attempt) => attempt.deliveryId === row.id)));
}

export async function findDelivery(statements: Statements, id: string): Promise<Delivery> {
  const row = await statements.get<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?`,
    [id],
  );
  if (row === undefined) throw notFound("Webhook delivery");
  const attempts = await statements.all<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM webhook_delivery_attempts WHERE delivery_id = ? ORDER BY seq`,
    [id],
  );
  return toDelivery(row, attempts);
}

/**
 * Queues the delivery again now with a fresh round of retries; the worker sends it within its poll
 * interval. Refused while an attempt is in flight, and for a disabled or removed webhook.
 */
export async function redeliver(db: Database, actor: Actor, id: string, now = new Date()): Promise<Delivery> {
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const before = await findDelivery(statements, id);
    const webhook = await findWebhook(statements, before.webhookId);
    if (!webhook.enabled) {
      throw new AppError("conflict", "The webhook is disabled: enable it before redelivering", {
        field: "enabled",
      });
    }
    const claim = await statements.get<{ claimedUntil: string | null }>(
      "SELECT claimed_until AS claimedUntil FROM webhook_deliveries WHERE id = ?",
      [id],
    );
    if (claim?.claimedUntil != null && claim.claimedUntil > now.toISOString()) {
      throw new AppError("conflict", "An attempt of this delivery is in progress; try again when it ends", {
        field: "status",
      });
    }
    await statements.run(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, round_attempts = 0,
         completed_at = NULL, claimed_until = NULL WHERE id = ?`,
      [now.toISOString(), id],
    );
    await recordAudit(tx, actor, {
      entityType: DELIVERY_AUDIT_ENTITY_TYPE,
      entityId: id,
      action: "redeliver",
      changes: {
        webhookId: before.webhookId,
        eventId: before.eventId,
        before: { status: before.status, attemptCount: before.attemptCount },
        after: { status: "pending", nextAttemptAt: now.toISOString() },
      },
    });
    return await findDelivery(statements, id);
  });
}
