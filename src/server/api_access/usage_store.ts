/**
 * The hourly counters of the public API, shared through the database by every app process: a
 * hono-rate-limiter Store whose increments are exact. Increments are group-committed: the requests
 * of one turn of the event loop are counted by one transaction with one upsert (count = count + n
 * RETURNING count, for every key and endpoint at once) on the bookkeeping connection (no fsync per
 * commit: a power loss may forget the last counts, a process crash cannot). The same transaction
 * confirms each key is still live (not revoked, not expired), so a revocation made by any process
 * takes effect on the next request without an extra read per request, and it records when each key
 * was last used (at most once per LAST_USED_RESOLUTION_MS).
 */
import { setImmediate } from "node:timers";
import { sql } from "drizzle-orm";
import type { ClientRateLimitInfo, Store } from "hono-rate-limiter";
import {
  documentedLimitPerHour,
  fixedWindow,
  RATE_LIMIT_WINDOW_MS,
  regionalCountSlack,
} from "../../domain/public_api.ts";
import type { Database } from "../db/database.ts";
import { AppError } from "../http/errors.ts";

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
const groupOf = (apiKeyId: string, endpoint: string, windowStartMs: number) =>
  `${apiKeyId} ${endpoint} ${windowStartMs}`;

/**
 * One upsert counts the whole batch: the groups arrive as one JSON array of [key id, endpoint,
 * window start, hits], and only live keys (not revoked, not expired) join api_keys, so a group
 * without a returned row belongs to a dead key. One statement per batch instead of a read and an
 * upsert per key, which cost more than the counting itself.
 */
const COUNT_BATCH_SQL = `INSERT INTO api_rate_limits (api_key_id, endpoint, window_start, count)
  SELECT k.id, g.value ->> 1, g.value ->> 2, g.value ->> 3
  FROM json_each(?) AS g JOIN api_keys AS k ON k.id = g.value ->> 0
  WHERE k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)
  ON CONFLICT (api_key_id, endpoint, window_start) DO UPDATE SET count = count + excluded.count
  RETURNING api_key_id AS apiKeyId, endpoint, window_start AS windowStart, count`;
/** last_used_at of the batch's keys, where it is older than LAST_USED_RESOLUTION_MS. */
const TOUCH_KEYS_SQL = `UPDATE api_keys SET last_used_at = ?
  WHERE id IN (SELECT value FROM json_each(?)) AND (last_used_at IS NULL OR last_used_at <= ?)`;
const PRUNE_SQL = "DELETE FROM api_rate_limits WHERE window_start < ?";

/** [key id, endpoint id, window start (ISO), hits] */
type CountedGroup = [string, string, string, number];

/**
 * Adds the groups' hits to the shared counters in one batch and returns the new totals of
 * the live keys' groups; also stamps last_used_at and, with `pruneBeforeMs`, drops old windows.
 */
async function addCounts(
  db: Database,
  counted: CountedGroup[],
  nowMs: number,
  pruneBeforeMs: number | null,
): Promise<CountRow[]> {
  const nowIso = isoOf(nowMs);
  const keyIds = [...new Set(counted.map(([apiKeyId]) => apiKeyId))];
  const [counts] = await db.writeBatch([
    { sql: COUNT_BATCH_SQL, args: [JSON.stringify(counted), nowIso], returnsRows: true },
    { sql: TOUCH_KEYS_SQL, args: [nowIso, JSON.stringify(keyIds), isoOf(nowMs - LAST_USED_RESOLUTION_MS)] },
    ...(pruneBeforeMs === null ? [] : [{ sql: PRUNE_SQL, args: [isoOf(pruneBeforeMs)] }]),
  ], { channel: "bookkeeping" });
  return counts.rows as CountRow[];
}

interface CountRow {
  [column: string]: unknown;
  apiKeyId: string;
  endpoint: string;
  windowStart: string;
  count: number;
}

/**
 * What both stores share: the database the counts live in, the clock and the limiter's window. The
 * clock is the app's (topology/clock.ts): every node's windows and key expiries on the primary's time.
 */
abstract class DatabaseUsageStore {
  /** Counts live in the database: other processes' increments are seen here. */
  readonly localKeys = false;
  protected readonly db: Database;
  protected readonly now: () => number;
  protected windowMs = RATE_LIMIT_WINDOW_MS;

  constructor(db: Database, now: () => number) {
    this.db = db;
    this.now = now;
  }

  init(options: { windowMs: number }): void {
    this.windowMs = options.windowMs;
  }
}

export class KeyUsageStore extends DatabaseUsageStore implements Store {
  #pending: PendingHit[] = [];
  /** Windows before this one have been pruned by this process. */
  #prunedBeforeMs = 0;

  increment(bucket: string): Promise<ClientRateLimitInfo> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const { startMs } = fixedWindow(this.now(), this.windowMs);
    return new Promise((resolve, reject) => {
      this.#pending.push({ apiKeyId, endpoint, windowStartMs: startMs, resolve, reject });
      // The next turn of the event loop, so every request that arrived in this one joins the batch
      // (setImmediate: a zero setTimeout is clamped to milliseconds).
      if (this.#pending.length === 1) setImmediate(() => this.#send());
    });
  }

  async get(bucket: string): Promise<ClientRateLimitInfo | undefined> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const window = fixedWindow(this.now(), this.windowMs);
    const [row] = await this.db.read.all<{ count: number }>(sql`SELECT count FROM api_rate_limits
      WHERE api_key_id = ${apiKeyId} AND endpoint = ${endpoint} AND window_start = ${isoOf(window.startMs)}`);
    return row ? { totalHits: row.count, resetTime: new Date(window.resetMs) } : undefined;
  }

  async decrement(bucket: string): Promise<void> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const { startMs } = fixedWindow(this.now(), this.windowMs);
    await this.db.transaction((tx) =>
      tx.run(sql`UPDATE api_rate_limits SET count = max(count - 1, 0)
        WHERE api_key_id = ${apiKeyId} AND endpoint = ${endpoint} AND window_start = ${isoOf(startMs)}`)
    );
  }

  async resetKey(bucket: string): Promise<void> {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    await this.db.transaction((tx) =>
      tx.run(sql`DELETE FROM api_rate_limits WHERE api_key_id = ${apiKeyId} AND endpoint = ${endpoint}`)
    );
  }

  /**
   * Counts the batch of the turn that just ended, without waiting for batches still being counted:
   * the write mutex runs them in turn, and each returns its own exact totals.
   */
  #send(): void {
    const batch = this.#pending;
    this.#pending = [];
    // Fail closed: a request that cannot be counted is not served.
    this.#count(batch).catch((error) => {
      for (const hit of batch) hit.reject(error);
    });
  }

  async #count(batch: PendingHit[]): Promise<void> {
    const nowMs = this.now();
    const groups = new Map<string, PendingHit[]>();
    for (const hit of batch) {
      const group = groupOf(hit.apiKeyId, hit.endpoint, hit.windowStartMs);
      const hits = groups.get(group);
      if (hits) hits.push(hit);
      else groups.set(group, [hit]);
    }
    // Once per window and process: counters of windows before the previous one are dead weight.
    const keepFromMs = fixedWindow(nowMs, this.windowMs).startMs - this.windowMs;
    const prune = this.#prunedBeforeMs < keepFromMs;
    const counted = [...groups.values()].map((hits): CountedGroup => {
      const [{ apiKeyId, endpoint, windowStartMs }] = hits;
      return [apiKeyId, endpoint, isoOf(windowStartMs), hits.length];
    });
    const rows = await addCounts(this.db, counted, nowMs, prune ? keepFromMs : null);
    if (prune) this.#prunedBeforeMs = keepFromMs;
    const totals = new Map(
      rows.map((row) => [groupOf(row.apiKeyId, row.endpoint, Date.parse(row.windowStart)), row.count]),
    );

    for (const [group, hits] of groups) {
      const total = totals.get(group);
      // No count: the key was revoked or expired, in this process or another.
      if (total === undefined) {
        for (const hit of hits) hit.reject(new AppError("unauthorized", "Unauthorized"));
        continue;
      }
      const resetTime = new Date(hits[0].windowStartMs + this.windowMs);
      hits.forEach((hit, index) => hit.resolve({ totalHits: total - hits.length + index + 1, resetTime }));
    }
  }
}

/** How often a regional node adds its uncounted requests to the primary's counters. */
export const REGIONAL_COUNT_FLUSH_MS = 250;

interface RegionalBucket {
  apiKeyId: string;
  endpoint: string;
  windowStartMs: number;
  /** The primary's total for the bucket when this node last added to it. */
  knownTotal: number;
  /** Admitted here and not yet sent to the primary. */
  unsent: number;
  /** Sent to the primary, whose answer has not come back yet. */
  inFlight: number;
  /** Most requests admitted here that the primary has not counted yet (regionalCountSlack). */
  slack: number;
}

/**
 * A regional node's hourly counters (docs/deployment.md): requests are counted here and added to
 * the shared counters on the primary in the background, every REGIONAL_COUNT_FLUSH_MS, so a keyed
 * request waits for no round trip to the primary. A bucket admits at most its slack of requests
 * the primary has not counted; the next one waits for the count. Across headquarters (exact) and
 * R regional nodes a key is therefore served at most crossRegionLimitBound(limit, R) requests per
 * window while the primary answers. While it does not, each node enforces the limit against the
 * last total it heard plus its own requests.
 */
export class RegionalKeyUsageStore extends DatabaseUsageStore implements Store {
  readonly #buckets = new Map<string, RegionalBucket>();
  #flushing: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** False after a count failed to reach the primary, until one succeeds: no one waits meanwhile. */
  #primaryAnswers = true;
  #prunedBeforeMs = 0;

  #bucket(bucket: string): RegionalBucket {
    const { apiKeyId, endpoint } = parseBucket(bucket);
    const { startMs } = fixedWindow(this.now(), this.windowMs);
    let state = this.#buckets.get(bucket);
    if (state === undefined || state.windowStartMs !== startMs) {
      const limit = documentedLimitPerHour(endpoint);
      if (limit === undefined) throw new Error(`no hourly limit for endpoint "${endpoint}"`);
      state = {
        apiKeyId,
        endpoint,
        windowStartMs: startMs,
        knownTotal: 0,
        unsent: 0,
        inFlight: 0,
        slack: regionalCountSlack(limit),
      };
      this.#buckets.set(bucket, state);
    }
    return state;
  }

  async increment(bucket: string): Promise<ClientRateLimitInfo> {
    let state = this.#bucket(bucket);
    while (this.#primaryAnswers && state.unsent + state.inFlight >= state.slack) {
      await this.#flush();
      state = this.#bucket(bucket);
    }
    state.unsent += 1;
    this.#scheduleFlush();
    return this.#infoOf(state);
  }

  get(bucket: string): Promise<ClientRateLimitInfo | undefined> {
    const state = this.#buckets.get(bucket);
    if (state === undefined) return Promise.resolve(undefined);
    return Promise.resolve(this.#infoOf(state));
  }

  /** What the limiter sees: the primary's last total plus what this node has admitted since. */
  #infoOf(state: RegionalBucket): ClientRateLimitInfo {
    return {
      totalHits: state.knownTotal + state.inFlight + state.unsent,
      resetTime: new Date(state.windowStartMs + this.windowMs),
    };
  }

  decrement(bucket: string): Promise<void> {
    const state = this.#buckets.get(bucket);
    if (state !== undefined && state.unsent > 0) state.unsent -= 1;
    return Promise.resolve();
  }

  resetKey(bucket: string): Promise<void> {
    this.#buckets.delete(bucket);
    return Promise.resolve();
  }

  #scheduleFlush(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush().catch(() => {});
    }, REGIONAL_COUNT_FLUSH_MS);
    Deno.unrefTimer(this.#timer);
  }

  /** Sends what is uncounted (one flush at a time; callers during one share the next). */
  #flush(): Promise<void> {
    this.#flushing ??= this.#send().finally(() => (this.#flushing = null));
    return this.#flushing;
  }

  async #send(): Promise<void> {
    const nowMs = this.now();
    const currentStartMs = fixedWindow(nowMs, this.windowMs).startMs;
    const sending: RegionalBucket[] = [];
    for (const [key, state] of this.#buckets) {
      // A past window's counts still go to the primary; then the bucket is forgotten.
      if (state.unsent === 0 && state.windowStartMs !== currentStartMs) this.#buckets.delete(key);
      if (state.unsent === 0) continue;
      state.inFlight = state.unsent;
      state.unsent = 0;
      sending.push(state);
    }
    if (sending.length === 0) return;
    const keepFromMs = currentStartMs - this.windowMs;
    const prune = this.#prunedBeforeMs < keepFromMs;
    try {
      const rows = await addCounts(
        this.db,
        sending.map((state) => [state.apiKeyId, state.endpoint, isoOf(state.windowStartMs), state.inFlight]),
        nowMs,
        prune ? keepFromMs : null,
      );
      if (prune) this.#prunedBeforeMs = keepFromMs;
      const totals = new Map(
        rows.map((row) => [groupOf(row.apiKeyId, row.endpoint, Date.parse(row.windowStart)), row.count]),
      );
      for (const state of sending) {
        // A key without a total was revoked or has expired: its resolver refuses it once the replica says so.
        const total = totals.get(groupOf(state.apiKeyId, state.endpoint, state.windowStartMs));
        if (total !== undefined) state.knownTotal = total;
        state.inFlight = 0;
      }
      this.#primaryAnswers = true;
    } catch (error) {
      // Kept for the next flush: no request this node admitted goes uncounted.
      for (const state of sending) {
        state.unsent += state.inFlight;
        state.inFlight = 0;
      }
      this.#primaryAnswers = false;
      this.#scheduleFlush();
      throw error;
    }
  }
}
