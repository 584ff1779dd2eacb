/**
 * The hourly counters of the public API, shared through the database by every app process: a
 * hono-rate-limiter Store whose increments are exact. Concurrent increments are group-committed:
 * requests arriving while a counting transaction runs wait for the next one, which counts all of
 * them with one upsert per key and endpoint (count = count + n RETURNING count), on the bookkeeping
 * connection (db.bookkeepingStatements: no fsync per commit; a power loss may forget the last
 * counts, a process crash cannot). The same transaction confirms each key is still live (not
 * revoked, not expired), so a revocation made by any process takes effect on the next request
 * without an extra read per request, and it records when each key was last used (at most once per
 * LAST_USED_RESOLUTION_MS).
 */
import { sql } from "drizzle-orm";
import type { ClientRateLimitInfo, Store } from "hono-rate-limiter";
import { fixedWindow, RATE_LIMIT_WINDOW_MS } from "../../domain/public_api.ts";
import type { Database, Statements } from "../db.ts";
import { AppError } from "../errors.ts";

/** last_used_at is written when it is older than this, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

interface PendingHit {
  apiKeyId: string;
  endpoint: string;
  windowStartMs: number;
  resolve: (info: ClientRateLimitInfo) => void;
  reject: (error: unknown) => void;
}

/** The limiter's key for one API key and endpoint: "<api key id> <endpoint id>". */
export function usageBucket(apiKeyId: string, endpoint: string): string {
  return `${apiKeyId} ${endpoint}`;
}

function parseBucket(bucket: string): { apiKeyId: string; endpoint: string } {
  const space = bucket.indexOf(" ");
  if (space <= 0) throw new Error(`malformed usage bucket "${bucket}"`);
  return { apiKeyId: bucket.slice(0, space), endpoint: bucket.slice(space + 1) };
}

const isoOf = (ms: number) => new Date(ms).toISOString();

const LIVE_KEY_SQL = `SELECT last_used_at AS lastUsedAt FROM api_keys
  WHERE id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`;
const COUNT_SQL = `INSERT INTO api_rate_limits (api_key_id, endpoint, window_start, count) VALUES (?, ?, ?, ?)
  ON CONFLICT (api_key_id, endpoint, window_start) DO UPDATE SET count = count + excluded.count
  RETURNING count`;
const TOUCH_KEY_SQL = "UPDATE api_keys SET last_used_at = ? WHERE id = ?";
const PRUNE_SQL = "DELETE FROM api_rate_limits WHERE window_start < ?";

export class KeyUsageStore implements Store {
  /** Counts live in the database: other processes' increments are seen here. */
  readonly localKeys = false;
  readonly #db: Database;
  readonly #now: () => number;
  #windowMs = RATE_LIMIT_WINDOW_MS;
  #pending: PendingHit[] = [];
  #draining = false;
  /** Windows before this one have been pruned by this process. */
  #prunedBeforeMs = 0;

  constructor(db: Database, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  init(options: { windowMs: number }): void {
    this.#windowMs = options.windowMs;
  }

  increment(bucket: string): Promise<ClientRateLimitInfo> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const { startMs } = fixedWindow(this.#now(), this.#windowMs);
    return new Promise((resolve, reject) => {
      this.#pending.push({ apiKeyId, endpoint, windowStartMs: startMs, resolve, reject });
      if (!this.#draining) {
        this.#draining = true;
        // A macrotask later, so every request that arrived in this turn joins the first batch.
        setTimeout(() => void this.#drain(), 0);
      }
    });
  }

  async get(bucket: string): Promise<ClientRateLimitInfo | undefined> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const window = fixedWindow(this.#now(), this.#windowMs);
    const [row] = await this.#db.read.all<{ count: number }>(sql`SELECT count FROM api_rate_limits
      WHERE api_key_id = ${apiKeyId} AND endpoint = ${endpoint} AND window_start = ${isoOf(window.startMs)}`);
    return row ? { totalHits: row.count, resetTime: new Date(window.resetMs) } : undefined;
  }

  async decrement(bucket: string): Promise<void> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const { startMs } = fixedWindow(this.#now(), this.#windowMs);
    await this.#db.transaction((tx) =>
      tx.run(sql`UPDATE api_rate_limits SET count = max(count - 1, 0)
        WHERE api_key_id = ${apiKeyId} AND endpoint = ${endpoint} AND window_start = ${isoOf(startMs)}`)
    );
  }

  async resetKey(bucket: string): Promise<void> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    await this.#db.transaction((tx) =>
      tx.run(sql`DELETE FROM api_rate_limits WHERE api_key_id = ${apiKeyId} AND endpoint = ${endpoint}`)
    );
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending;
        this.#pending = [];
        try {
          await this.#count(batch);
        } catch (error) {
          // Fail closed: a request that cannot be counted is not served.
          for (const hit of batch) hit.reject(error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  async #count(batch: PendingHit[]): Promise<void> {
    const nowMs = this.#now();
    const nowIso = isoOf(nowMs);
    const groups = new Map<string, PendingHit[]>();
    for (const hit of batch) {
      const group = `${hit.apiKeyId} ${hit.endpoint} ${hit.windowStartMs}`;
      const hits = groups.get(group);
      if (hits) hits.push(hit);
      else groups.set(group, [hit]);
    }
    const keyIds = [...new Set(batch.map((hit) => hit.apiKeyId))];

    // Prepared statements, one per key and per group: a batch holds a few keys, and SQL built per
    // batch (IN lists, multi-row VALUES) would cost more to build than SQLite takes to run it.
    const { live, counts } = await this.#db.bookkeepingStatements(async (statements) => {
      const live = new Set<string>();
      const stale: string[] = [];
      for (const keyId of keyIds) {
        const row = await statements.get<{ lastUsedAt: string | null }>(LIVE_KEY_SQL, [keyId, nowIso]);
        if (row === undefined) continue;
        live.add(keyId);
        if (row.lastUsedAt === null || Date.parse(row.lastUsedAt) <= nowMs - LAST_USED_RESOLUTION_MS) {
          stale.push(keyId);
        }
      }
      const counts = new Map<string, number>();
      for (const [group, hits] of groups) {
        if (!live.has(hits[0].apiKeyId)) continue;
        const row = await statements.get<{ count: number }>(COUNT_SQL, [
          hits[0].apiKeyId,
          hits[0].endpoint,
          isoOf(hits[0].windowStartMs),
          hits.length,
        ]);
        if (row !== undefined) counts.set(group, row.count);
      }
      for (const keyId of stale) await statements.run(TOUCH_KEY_SQL, [nowIso, keyId]);
      await this.#pruneOldWindows(statements, nowMs);
      return { live, counts };
    });

    for (const [group, hits] of groups) {
      if (!live.has(hits[0].apiKeyId)) {
        for (const hit of hits) hit.reject(new AppError("unauthorized", "Unauthorized"));
        continue;
      }
      const total = counts.get(group);
      if (total === undefined) throw new Error(`no count returned for ${group}`);
      const resetTime = new Date(hits[0].windowStartMs + this.#windowMs);
      hits.forEach((hit, index) => hit.resolve({ totalHits: total - hits.length + index + 1, resetTime }));
    }
  }

  /** Once per window and process: counters of windows before the previous one are dead weight. */
  async #pruneOldWindows(statements: Statements, nowMs: number): Promise<void> {
    const { startMs } = fixedWindow(nowMs, this.#windowMs);
    const keepFromMs = startMs - this.#windowMs;
    if (this.#prunedBeforeMs >= keepFromMs) return;
    await statements.run(PRUNE_SQL, [isoOf(keepFromMs)]);
    this.#prunedBeforeMs = keepFromMs;
  }
}
