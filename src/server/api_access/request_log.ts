/**
 * The API request log (spec 3, api_logs): every /api request, with payloads redacted and cut to a
 * preview. Requests only append to an in-memory queue; the queue is written in batches, each one
 * write transaction, when it holds API_LOG_FLUSH_BATCH_ENTRIES entries or API_LOG_FLUSH_INTERVAL_MS
 * after the first unwritten entry. For a database file the batches are written on a connection of
 * their own (the "log" batch channel), on the thread that serves requests: a thread of their own
 * cost more CPU per request in all than it took off this one (docs/bench.md).
 * `stop()` (clean shutdown) writes whatever is left. Rows older than the retention (the System
 * Settings' request log retention, else API_LOG_RETENTION_DAYS) are pruned by the writer about once
 * an hour.
 */
import { setImmediate } from "node:timers";
import type { Context, MiddlewareHandler } from "hono";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../../db/schema.ts";
import { recordAudit } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import { clientIp } from "../http/context.ts";
import { type Database, isFileUrl } from "../db/database.ts";
import type { Clock } from "../topology/clock.ts";
import { readSystemSettings } from "../settings/system_settings.ts";
import { JSON_CONTENT_TYPE, NULL_BODY_STATUSES } from "./envelope.ts";
import type { ApiAccessEnv } from "./env.ts";
import {
  type CapturedBody,
  type CapturedRequest,
  type LogRow,
  logRowInserts,
  logRowsInsertFromJson,
  logRowsOf,
} from "./request_log_rows.ts";

export const API_LOG_FLUSH_INTERVAL_MS = 250;
export const API_LOG_FLUSH_BATCH_ENTRIES = 500;
/**
 * Entries per batch when the log is written to the primary over the network (the replicated
 * roles): a batch costs a round trip, so with local-sized batches a regional node behind a WAN
 * round trip logs fewer entries than it serves requests, and drops the rest once its queue is full.
 */
export const API_LOG_REMOTE_BATCH_ENTRIES = 5_000;
/**
 * Building a batch's rows yields to requests once a turn of the event loop has spent this long on
 * it: most rows are cheap, but a long answer not logged before is parsed whole to redact the
 * beginning its preview keeps.
 */
export const API_LOG_ROW_BUILDING_PER_TURN_MS = 1;
/** Rows built between two looks at the clock. */
const ROWS_PER_SLICE = 5;
/** Past this many unwritten entries (the database is stuck), new entries are dropped and counted. */
export const MAX_QUEUED_API_LOG_ENTRIES = 50_000;
export const API_LOG_PRUNE_INTERVAL_MS = 3_600_000;
/** Rows deleted per pruning transaction, so pruning never holds the write lock for long. */
export const API_LOG_PRUNE_CHUNK_ROWS = 5_000;
export const MAX_LOGGED_METHOD_LENGTH = 10;
export const MAX_LOGGED_USER_AGENT_LENGTH = 512;
const DAY_MS = 86_400_000;

export interface RequestLogSettings {
  flushIntervalMs: number;
  flushBatchEntries: number;
  maxQueuedEntries: number;
  /** Null: the System Settings' retention, else the host's API_LOG_RETENTION_DAYS. */
  retentionDays: number | null;
  pruneIntervalMs: number;
}

function fieldsOf(entries: Iterable<[string, FormDataEntryValue]>): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    const text = typeof value === "string" ? value : `[file ${value.name}, ${value.size} bytes]`;
    const previous = fields[name];
    fields[name] = previous === undefined
      ? text
      : [...(Array.isArray(previous) ? previous : [previous]), text];
  }
  return fields;
}

/**
 * The body as the application read it. A body nobody read (the request was refused first) is not
 * read here either: its size is not bounded by anything the application checked.
 */
async function capturedBody(c: Context): Promise<CapturedBody | null> {
  const cache = c.req.bodyCache;
  try {
    if (cache.formData) return { kind: "fields", fields: fieldsOf(await cache.formData) };
    if (cache.text) return { kind: "text", text: await cache.text };
    if (cache.json) return { kind: "value", value: await cache.json };
    if (cache.arrayBuffer) return { kind: "text", text: new TextDecoder().decode(await cache.arrayBuffer) };
  } catch {
    // The body failed to read (too large, malformed): nothing to log.
  }
  return null;
}

/** The body of a JSON response, read from a copy so the client still gets the original. */
async function responseTextOf(res: Response): Promise<string | null> {
  if (NULL_BODY_STATUSES.has(res.status) || !JSON_CONTENT_TYPE.test(res.headers.get("content-type") ?? "")) {
    return null;
  }
  try {
    return await res.clone().text();
  } catch {
    return null;
  }
}

function queryOf(c: Context): Record<string, string | string[]> | null {
  if (!c.req.url.includes("?")) return null;
  const entries = Object.entries(c.req.queries());
  if (entries.length === 0) return null;
  return Object.fromEntries(
    entries.map(([name, values]) => [name, values.length === 1 ? values[0] : values]),
  );
}

export class RequestLog {
  readonly #db: Database;
  readonly #config: Config;
  /** Every node's rows are stamped on one time scale (topology/clock.ts): the hourly figures mix them. */
  readonly #clock: Pick<Clock, "now">;
  readonly #settings: RequestLogSettings;
  #queue: CapturedRequest[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #chain: Promise<void> = Promise.resolve();
  #dropped = 0;
  #stopped = false;
  #lastPruneMs = Number.NEGATIVE_INFINITY;
  /** Opened with the first batch; null when the local database is not where the log is written. */

  constructor(
    db: Database,
    config: Config,
    clock: Pick<Clock, "now">,
    settings: Partial<RequestLogSettings> = {},
  ) {
    this.#db = db;
    this.#config = config;
    this.#clock = clock;
    this.#settings = {
      flushIntervalMs: API_LOG_FLUSH_INTERVAL_MS,
      flushBatchEntries: API_LOG_FLUSH_BATCH_ENTRIES,
      maxQueuedEntries: MAX_QUEUED_API_LOG_ENTRIES,
      retentionDays: null,
      pruneIntervalMs: API_LOG_PRUNE_INTERVAL_MS,
      ...settings,
    };
  }

  get queued(): number {
    return this.#queue.length;
  }

  readonly middleware: MiddlewareHandler<ApiAccessEnv> = async (c, next) => {
    const createdAtMs = this.#clock.now();
    const startedMs = performance.now();
    await next();
    const responseTimeMs = Math.round(performance.now() - startedMs);
    const apiKeyId = c.get("apiKeyId") ?? null;
    // Read back from a copy rather than captured by wrapping c.json(): a per-request c.json
    // replacement costs every /api request server CPU (docs/bench.md).
    const response = c.get("sentResponseBody") ?? await responseTextOf(c.res);
    this.#enqueue({
      endpoint: c.req.path,
      method: c.req.method.slice(0, MAX_LOGGED_METHOD_LENGTH),
      clientIp: clientIp(c, this.#config),
      userAgent: c.req.header("user-agent")?.slice(0, MAX_LOGGED_USER_AGENT_LENGTH) ?? null,
      responseStatus: c.res.status,
      responseTimeMs,
      query: queryOf(c),
      body: await capturedBody(c),
      response,
      apiKeyId,
      userId: apiKeyId ? null : c.get("user")?.id ?? null,
      createdAtMs,
    });
  };

  /** Writes every queued entry; resolves when they are committed (or reported as failed). */
  flush(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#writeQueued());
    return this.#chain;
  }

  /** Clean shutdown: no more timers, and everything queued is written before this resolves. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clearTimer();
    await this.flush();
  }

  /** Deletes rows older than the retention; returns how many. */
  async prune(now = new Date(this.#clock.now())): Promise<number> {
    const retentionDays = this.#settings.retentionDays ??
      (await readSystemSettings(this.#db)).requestLogRetentionDays ?? this.#config.apiLogRetentionDays;
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
    this.#lastPruneMs = now.getTime();
    let total = 0;
    for (;;) {
      const deleted = await this.#db.transaction(async (tx) => {
        const result = await tx.run(sql`DELETE FROM api_logs WHERE id IN
          (SELECT id FROM api_logs WHERE created_at < ${cutoff} LIMIT ${API_LOG_PRUNE_CHUNK_ROWS})`);
        if (result.rowsAffected > 0) {
          await recordAudit(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null }, {
            entityType: "api_logs",
            entityId: "retention",
            action: "prune",
            changes: {
              deleted: result.rowsAffected,
              before: cutoff,
              retentionDays,
            },
          });
        }
        return result.rowsAffected;
      });
      total += deleted;
      if (deleted < API_LOG_PRUNE_CHUNK_ROWS) return total;
    }
  }

  #enqueue(entry: CapturedRequest): void {
    if (this.#queue.length >= this.#settings.maxQueuedEntries) {
      this.#dropped += 1;
      return;
    }
    this.#queue.push(entry);
    if (this.#stopped || this.#queue.length >= this.#settings.flushBatchEntries) {
      void this.flush();
    } else {
      this.#scheduleFlush();
    }
  }

  async #write(batch: CapturedRequest[]): Promise<void> {
    // The rows are built before the write transaction begins: the redaction is most of the work,
    // and the transaction holds the database's write lock for every other connection. They are
    // built across turns of the event loop, so that no request waits behind a whole batch's redaction.
    // A local file takes the rows as prepared inserts on the log's own connection; the primary
    // takes them as one JSON text, one statement for the whole batch.
    const local = this.#db.writesLocal && isFileUrl(this.#db.url);
    const rows: LogRow[] = [];
    // To the primary over the network, each row is made JSON as it is built: JSON.stringify of a
    // whole batch at once stops the event loop as long as building it would.
    const rowsJson: string[] = [];
    let turnStartedMs = performance.now();
    for (let start = 0; start < batch.length; start += ROWS_PER_SLICE) {
      if (performance.now() - turnStartedMs >= API_LOG_ROW_BUILDING_PER_TURN_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turnStartedMs = performance.now();
      }
      const built = logRowsOf(batch.slice(start, start + ROWS_PER_SLICE));
      if (local) rows.push(...built);
      else for (const row of built) rowsJson.push(JSON.stringify(row));
    }
    if (local) await this.#db.writeBatch(logRowInserts(rows), { channel: "log" });
    else await this.#db.writeBatch([logRowsInsertFromJson(rowsJson)]);
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #writeQueued(): Promise<void> {
    this.#clearTimer();
    const batchEntries = this.#db.writesLocal
      ? this.#settings.flushBatchEntries
      : Math.max(this.#settings.flushBatchEntries, API_LOG_REMOTE_BATCH_ENTRIES);
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, batchEntries);
      try {
        await this.#write(batch);
      } catch (error) {
        console.error(`api_logs: writing ${batch.length} entries failed; retrying later`, error);
        const room = this.#settings.maxQueuedEntries - this.#queue.length;
        this.#dropped += Math.max(0, batch.length - room);
        this.#queue.unshift(...batch.slice(0, Math.max(0, room)));
        if (!this.#stopped) this.#scheduleFlush();
        break;
      }
    }
    if (this.#dropped > 0) {
      console.warn(`api_logs: ${this.#dropped} entries dropped: the write queue was full`);
      this.#dropped = 0;
    }
    // Headquarters prunes for every node: a regional node's pruning would hold the primary's write
    // lock across the WAN.
    if (
      this.#config.role !== "regional" && this.#clock.now() - this.#lastPruneMs >= this.#settings.pruneIntervalMs
    ) {
      try {
        await this.prune();
      } catch (error) {
        console.error("api_logs: pruning failed", error);
      }
    }
  }

  #scheduleFlush(): void {
    if (this.#timer !== undefined) return;
    const timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#settings.flushIntervalMs);
    // Never the reason a process stays alive; stop() writes what is left.
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }
}
