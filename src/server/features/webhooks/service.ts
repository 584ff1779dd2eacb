/**
 * Webhook registrations and their delivery log. The signing secret is generated here, returned once
 * by the creation and otherwise kept encrypted at rest (deps.secrets, as the connections'
 * credentials); no response and no audit row carries it. Each change is audited in its own
 * transaction.
 */
import { MAX_WEBHOOKS } from "../../../domain/webhooks.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import { type Database, statementsOf, type Tx } from "../../db/database.ts";
import type { Statements } from "../../db/statements.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import type { OutboundPolicy } from "../../http/outbound.ts";
import type { Secrets } from "../../secrets.ts";
import { checkDestination } from "./destination.ts";
import type { CreatedWebhook, CreateWebhookInput, UpdateWebhookInput, Webhook } from "./schemas.ts";
import { generateWebhookSecret } from "./signing.ts";

export const AUDIT_ENTITY_TYPE = "webhook";

interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  eventKinds: string;
  enabled: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  [column: string]: unknown;
}

const WEBHOOK_COLUMNS = `id, url, description, event_kinds AS eventKinds, enabled, created_at AS createdAt,
  updated_at AS updatedAt, created_by AS createdBy`;

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventKinds: JSON.parse(row.eventKinds),
    enabled: Boolean(row.enabled),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
  };
}

export async function listWebhooks(statements: Statements): Promise<Webhook[]> {
  const rows = await statements.all<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE deleted_at IS NULL ORDER BY created_at, rowid`,
    [],
  );
  return rows.map(toWebhook);
}

/** A registered (not removed) webhook, or a 404. */
export async function findWebhook(statements: Statements, id: string): Promise<Webhook> {
  const row = await statements.get<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ? AND deleted_at IS NULL`,
    [id],
  );
  if (row === undefined) throw notFound("Webhook");
  return toWebhook(row);
}

async function refuseDuplicateUrl(
  statements: Statements,
  url: string,
  exceptId: string | null,
): Promise<void> {
  const existing = await statements.get<{ id: string }>(
    "SELECT id FROM webhooks WHERE url = ? AND deleted_at IS NULL",
    [url],
  );
  if (existing !== undefined && existing.id !== exceptId) {
    throw conflict("url", "A webhook for this URL is already registered");
  }
}

export async function createWebhook(
  db: Database,
  secrets: Secrets,
  actor: Actor,
  input: CreateWebhookInput,
  policy: OutboundPolicy,
): Promise<CreatedWebhook> {
  await checkDestination(input.url, policy);
  const secret = generateWebhookSecret();
  const secretEncrypted = await secrets.encrypt(secret);
  const now = new Date().toISOString();
  const webhook: Webhook = {
    id: crypto.randomUUID(),
    url: input.url,
    description: input.description,
    eventKinds: input.eventKinds,
    enabled: input.enabled,
    createdAt: now,
    updatedAt: now,
    createdBy: actor.userId,
  };
  await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const live = await statements.get<{ count: number }>(
      "SELECT count(*) AS count FROM webhooks WHERE deleted_at IS NULL",
      [],
    );
    if ((live?.count ?? 0) >= MAX_WEBHOOKS) {
      throw new AppError("conflict", `At most ${MAX_WEBHOOKS} webhooks may be registered; remove one first`);
    }
    await refuseDuplicateUrl(statements, input.url, null);
    // Only events after this one are delivered to the new webhook: it did not exist before.
    await statements.run(
      `INSERT INTO webhooks (id, url, description, event_kinds, secret_encrypted, enabled, after_seq,
        created_at, created_by, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) FROM events), ?, ?, ?)`,
      [
        webhook.id,
        webhook.url,
        webhook.description,
        JSON.stringify(webhook.eventKinds),
        secretEncrypted,
        webhook.enabled ? 1 : 0,
        now,
        actor.userId,
        now,
      ],
    );
    await recordCreation(tx, actor, AUDIT_ENTITY_TYPE, webhook.id, webhook);
  });
  return { ...webhook, secret };
}

/** The fields `input` changes, before and after. */
function changedFields(before: Webhook, input: UpdateWebhookInput) {
  const after: Webhook = {
    ...before,
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.eventKinds !== undefined ? { eventKinds: input.eventKinds } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  };
  const keys = (["url", "eventKinds", "description", "enabled"] as const).filter((key) =>
    JSON.stringify(before[key]) !== JSON.stringify(after[key])
  );
  const pick = (webhook: Webhook) => Object.fromEntries(keys.map((key) => [key, webhook[key]]));
  return { after, changes: { before: pick(before), after: pick(after) }, changed: keys.length > 0 };
}

export async function updateWebhook(
  db: Database,
  actor: Actor,
  id: string,
  input: UpdateWebhookInput,
  policy: OutboundPolicy,
): Promise<Webhook> {
  if (input.url !== undefined) await checkDestination(input.url, policy);
  return await db.transaction(async (tx) => {
    const statements = statementsOf(tx);
    const before = await findWebhook(statements, id);
    const { after, changes, changed } = changedFields(before, input);
    if (!changed) return before;
    if (input.url !== undefined) await refuseDuplicateUrl(statements, after.url, id);
    after.updatedAt = new Date().toISOString();
    // Re-enabled: the events of the time it was disabled stay undelivered, however late the worker reads them.
    await statements.run(
      `UPDATE webhooks SET url = ?, description = ?, event_kinds = ?, enabled = ?, updated_at = ?,
         after_seq = CASE WHEN ? THEN (SELECT coalesce(max(seq), 0) FROM events) ELSE after_seq END
       WHERE id = ?`,
      [
        after.url,
        after.description,
        JSON.stringify(after.eventKinds),
        after.enabled ? 1 : 0,
        after.updatedAt,
        after.enabled && !before.enabled ? 1 : 0,
        id,
      ],
    );
    await recordAudit(tx, actor, { entityType: AUDIT_ENTITY_TYPE, entityId: id, action: "update", changes });
    return after;
  });
}

/**
 * Removes a webhook: it receives nothing more and its queued deliveries end as failed. The row stays
 * (deleted_at) so that its delivery log remains in the database.
 */
export async function deleteWebhook(db: Database, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx: Tx) => {
    const statements = statementsOf(tx);
    const before = await findWebhook(statements, id);
    const now = new Date().toISOString();
    await statements.run("UPDATE webhooks SET deleted_at = ?, enabled = 0, updated_at = ? WHERE id = ?", [
      now,
      now,
      id,
    ]);
    const cancelled = await statements.run(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claimed_until = NULL, completed_at = ?
       WHERE webhook_id = ? AND status = 'pending'`,
      [now, id],
    );
    await recordAudit(tx, actor, {
      entityType: AUDIT_ENTITY_TYPE,
      entityId: id,
      action: "delete",
      changes: { before, after: null, cancelledDeliveries: cancelled },
    });
  });
}
