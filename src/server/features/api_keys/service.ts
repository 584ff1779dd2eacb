/**
 * API keys: create (the key is returned once, only its SHA-256 is stored), list and revoke. Each
 * change is audited in its own transaction; the audit never carries the key or its hash.
 */
import { desc, eq } from "drizzle-orm";
import { apiKeys } from "../../../../db/schema.ts";
import { visibleKeyPrefix } from "../../../domain/public_api.ts";
import { generateApiKey, hashApiKey } from "../../api_access/keys.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable } from "../../db/database.ts";
import { readSystemSettings } from "../../settings/system_settings.ts";
import { AppError, notFound } from "../../http/errors.ts";
import type { ApiKey, ApiKeyStatus, CreateApiKeyInput, CreatedApiKey } from "./schemas.ts";

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function apiKeyStatus(
  row: Pick<ApiKeyRow, "revokedAt" | "expiresAt">,
  now = new Date(),
): ApiKeyStatus {
  if (row.revokedAt !== null) return "revoked";
  if (row.expiresAt !== null && row.expiresAt <= now.toISOString()) return "expired";
  return "active";
}

function toApiKey(row: ApiKeyRow, now = new Date()): ApiKey {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.keyPrefix,
    status: apiKeyStatus(row, now),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    createdBy: row.createdBy,
    limitPerHour: row.limitPerHour,
  };
}

export async function createApiKey(
  db: Database,
  actor: Actor,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const row: ApiKeyRow = {
    id: crypto.randomUUID(),
    name: input.name,
    keyPrefix: visibleKeyPrefix(key),
    keyHash: hashApiKey(key),
    createdAt: new Date().toISOString(),
    lastUsedAt: null,
    expiresAt: input.expiresAt,
    revokedAt: null,
    createdBy: actor.userId,
    // The System Settings' API rate limit applies to keys made from now on; older keys keep theirs.
    limitPerHour: (await readSystemSettings(db)).apiRateLimit,
  };
  const record = toApiKey(row);
  await db.transaction(async (tx) => {
    await tx.insert(apiKeys).values(row);
    await recordCreation(tx, actor, "api_key", row.id, record);
  });
  return { ...record, key };
}

export async function listApiKeys(db: Queryable): Promise<ApiKey[]> {
  const rows = await db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).all();
  const now = new Date();
  return rows.map((row) => toApiKey(row, now));
}

export function revokeApiKey(db: Database, actor: Actor, id: string): Promise<ApiKey> {
  return db.transaction(async (tx) => {
    const row = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).get();
    if (!row) throw notFound("API key");
    if (row.revokedAt !== null) throw new AppError("conflict", "API key is already revoked");
    const revokedAt = new Date().toISOString();
    await tx.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, id));
    const before = toApiKey(row);
    const after = toApiKey({ ...row, revokedAt });
    await recordAudit(tx, actor, {
      entityType: "api_key",
      entityId: id,
      action: "revoke",
      changes: { before, after },
    });
    return after;
  });
}
