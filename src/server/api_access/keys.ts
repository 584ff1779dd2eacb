/**
 * API keys as credentials: generation, hashing, and resolving a presented key to its identity.
 * Only the SHA-256 of a key is stored; the key itself is shown once, at creation.
 */
import { Buffer } from "node:buffer";
import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { apiKeys } from "../../../db/schema.ts";
import { encodeApiKey, isWellFormedApiKey } from "../../domain/public_api.ts";
import { BoundedMap } from "../bounded_map.ts";
import type { Database } from "../db/database.ts";
import type { Clock } from "../topology/clock.ts";

/** Resolved identities kept in memory; beyond this the oldest is forgotten (and re-read when used). */
export const MAX_CACHED_API_KEYS = 10_000;

export function generateApiKey(): string {
  return encodeApiKey((count) => crypto.getRandomValues(new Uint8Array(count)));
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export interface ApiKeyIdentity {
  id: string;
  name: string;
  keyPrefix: string;
  createdBy: string | null;
  expiresAt: string | null;
  /** The key's own hourly limit per endpoint; null: the documented endpoint limits alone. */
  limitPerHour: number | null;
}

/** The SQL condition "not revoked and not expired at `nowIso`". */
export function liveKeyCondition(nowIso: string) {
  return and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, nowIso)));
}

/** The presented token of an `Authorization: Bearer <token>` header; undefined without one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(authorization.trim());
  return match ? (match[1] ?? "").trim() : undefined;
}

const FIND_LIVE_KEY_SQL = `SELECT id, name, key_prefix AS keyPrefix, key_hash AS keyHash,
  created_by AS createdBy, expires_at AS expiresAt, limit_per_hour AS limitPerHour
  FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`;

/**
 * Maps presented keys to identities. A key never changes owner, so identities are cached, by the
 * presented key itself: hashing it costs more than the lookup, and the process holds the key while
 * it serves the request anyway. But revocation can happen at any moment in any process, so a cached
 * answer only says who the key belongs to. Whoever admits the request must confirm the key is still
 * live in the database: the usage store does so in the same transaction that counts the request,
 * `isLive` otherwise.
 */
export class ApiKeyResolver {
  readonly #db: Database;
  /** A key expires at the same instant at every node: the app's clock (topology/clock.ts). */
  readonly #clock: Pick<Clock, "now">;
  readonly #cache = new BoundedMap<string, ApiKeyIdentity>(MAX_CACHED_API_KEYS);

  constructor(db: Database, clock: Pick<Clock, "now">) {
    this.#db = db;
    this.#clock = clock;
  }

  async resolve(token: string): Promise<ApiKeyIdentity | null> {
    const now = new Date(this.#clock.now());
    const cached = this.#cache.get(token);
    if (cached) {
      if (cached.expiresAt === null || cached.expiresAt > now.toISOString()) return cached;
      this.#cache.delete(token);
      return null;
    }
    if (!isWellFormedApiKey(token)) return null;
    const hash = hashApiKey(token);
    const row = await this.#db.statements.get<
      ApiKeyIdentity & { keyHash: string; [column: string]: unknown }
    >(
      FIND_LIVE_KEY_SQL,
      [hash, now.toISOString()],
    );
    if (!row || !timingSafeEqual(Buffer.from(row.keyHash, "hex"), Buffer.from(hash, "hex"))) return null;
    const identity: ApiKeyIdentity = {
      id: row.id,
      name: row.name,
      keyPrefix: row.keyPrefix,
      createdBy: row.createdBy,
      expiresAt: row.expiresAt,
      limitPerHour: row.limitPerHour,
    };
    this.#cache.set(token, identity);
    return identity;
  }

  /** Reads the key's current state: false once it is revoked or expired. */
  async isLive(id: string): Promise<boolean> {
    const row = await this.#db.read.select({ id: apiKeys.id }).from(apiKeys)
      .where(and(eq(apiKeys.id, id), liveKeyCondition(new Date(this.#clock.now()).toISOString()))).get();
    return row !== undefined;
  }
}
