/**
 * The mandatory-work floor (bench/cpu_cost.ts): the floor app (floor_server.ts) plus the work every
 * console request on the hot paths must do by the spec and issue 24's own terms, each done as
 * cheaply as we know how, and nothing else. Where the console costs more than this, the difference
 * is the console's own design; where this alone costs more than a target, no design on this
 * machine meets it.
 *
 *   deno run -A bench/mandatory_floor_server.ts <port, 0 for any> <config JSON>
 *
 * On top of the floor's handlers, every request:
 * - is answered with the console's API security headers (passed in, as the console sends them);
 * - is signed in: the session cookie looked up in a Map (no expiry sliding, no change epochs), or
 *   for the lookup an `Authorization: Bearer` key looked up in a Map (no hashing);
 * - for a key: is counted against its hourly limit, exactly within this process, in memory, and in
 *   shared counters in the database once per turn of the event loop (one upsert per key and
 *   endpoint, like the console's group commit), with the RateLimit headers and the envelope;
 * - is a row of the request log: the console's api_logs table (its CHECKs and indexes, created from
 *   the console's own schema), a
 *   time-ordered UUID and an ISO timestamp per row, written in batches of 500 or every 250 ms, 50
 *   rows per INSERT, in one transaction with nothing awaited inside. Payloads are stored as sent:
 *   no redaction, which the console must do (a lower bound).
 *
 * POST /__bench/keys with a JSON array of bearer tokens registers keys (the bench's fresh keys).
 */
import { setImmediate } from "node:timers";
import { zValidator } from "@hono/zod-validator";
import { type Context, Hono } from "hono";
import NativeDatabase from "libsql";
import { v7 as timeOrderedUuid } from "uuid";
import { z } from "zod";
import registry from "../db/seed/iban_registry_r102.json" with { type: "json" };
import { type IbanCountryFormat, validateIban } from "../src/domain/iban.ts";
import { type IbanRegistryEntry, toIbanCountryFormat } from "../src/domain/iban_registry.ts";
import { validateRoutingCode } from "../src/domain/routing_code.ts";

interface Config {
  routingCode: { code: string };
  /** The console session's cookie, "name=value", and the user its /api/auth/user answers. */
  sessionCookie: string;
  user: Record<string, unknown>;
  /** The console's security headers on an API answer. */
  securityHeaders: [string, string][];
  limitPerHour: number;
  databasePath: string;
  /** The console's own CREATE statements of api_logs and api_rate_limits, with their indexes. */
  schema: string[];
}

const LOG_BATCH_ENTRIES = 500;
const LOG_FLUSH_INTERVAL_MS = 250;
const ROWS_PER_INSERT = 50;
const WINDOW_MS = 3_600_000;

const port = Number(Deno.args[0] ?? "0");
const config: Config = JSON.parse(Deno.args[1] ?? "null");

const db = new NativeDatabase(config.databasePath);
for (
  const pragma of [
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA wal_autocheckpoint = 2000",
    // The counters' foreign key names api_keys, which this database does not have (keys live in a
    // Map); the console checks it, which costs it more.
    "PRAGMA foreign_keys = OFF",
  ]
) db.exec(pragma);
for (const statement of config.schema) db.exec(statement);

const insertSql = (rows: number) =>
  `INSERT INTO api_logs (id, endpoint, method, client_ip, user_agent, response_status, response_time,
  request_payload, response_payload, api_key_id, user_id, created_at) VALUES ${
    Array(rows).fill("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")
  }`;
const insertChunk = db.prepare(insertSql(ROWS_PER_INSERT));
const insertOne = db.prepare(insertSql(1));
const countUpsert = db.prepare(`INSERT INTO api_rate_limits (api_key_id, endpoint, window_start, count)
  VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = count + excluded.count`);

interface Entry {
  endpoint: string;
  method: string;
  status: number;
  timeMs: number;
  request: string | null;
  response: string | null;
  apiKeyId: string | null;
  userId: string | null;
  createdAtMs: number;
  userAgent: string | null;
}

let queue: Entry[] = [];
let flushTimer: ReturnType<typeof setTimeout> | undefined;

function writeLog(): void {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  const batch = queue;
  queue = [];
  const rows = batch.map((e) => [
    timeOrderedUuid({ msecs: e.createdAtMs }),
    e.endpoint,
    e.method,
    "127.0.0.1",
    e.userAgent,
    e.status,
    e.timeMs,
    e.request,
    e.response,
    e.apiKeyId,
    e.userId,
    new Date(e.createdAtMs).toISOString(),
  ]);
  db.exec("BEGIN IMMEDIATE");
  let start = 0;
  for (; start + ROWS_PER_INSERT <= rows.length; start += ROWS_PER_INSERT) {
    insertChunk.run(rows.slice(start, start + ROWS_PER_INSERT).flat());
  }
  for (const row of rows.slice(start)) insertOne.run(row);
  db.exec("COMMIT");
}

function log(entry: Entry): void {
  queue.push(entry);
  if (queue.length >= LOG_BATCH_ENTRIES) writeLog();
  else flushTimer ??= setTimeout(writeLog, LOG_FLUSH_INTERVAL_MS);
}

/** Exact within this process; the shared counters take this turn's hits in one transaction. */
const counts = new Map<string, number>();
let uncounted = new Map<string, number>();
function countHit(apiKeyId: string, endpoint: string, windowStart: number): number {
  const bucket = `${apiKeyId} ${endpoint} ${windowStart}`;
  const total = (counts.get(bucket) ?? 0) + 1;
  counts.set(bucket, total);
  if (uncounted.size === 0) setImmediate(flushCounts);
  uncounted.set(bucket, (uncounted.get(bucket) ?? 0) + 1);
  return total;
}
function flushCounts(): void {
  const batch = uncounted;
  uncounted = new Map();
  db.exec("BEGIN IMMEDIATE");
  for (const [bucket, hits] of batch) {
    const [apiKeyId, endpoint, windowStart] = bucket.split(" ");
    countUpsert.run([apiKeyId, endpoint, new Date(Number(windowStart)).toISOString(), hits]);
  }
  db.exec("COMMIT");
}

const formats: ReadonlyMap<string, IbanCountryFormat> = new Map(
  (registry as IbanRegistryEntry[]).map((entry) => [entry.countryCode, toIbanCountryFormat(entry)]),
);
const routingCodes = new Map([[config.routingCode.code, config.routingCode]]);
const [cookieName, cookieValue] = config.sessionCookie.split("=");
const sessions = new Map([[cookieValue, config.user]]);
const apiKeys = new Map<string, string>();
const userId = String(config.user.id ?? "user");

const validateIbanBody = z.object({ iban: z.string() });
const routingCodeParam = z.object({
  code: z.string().superRefine((code, ctx) => {
    const result = validateRoutingCode(code);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  }),
});

type Env = { Variables: { userId: string | null; apiKeyId: string | null; sent: string | null } };
const app = new Hono<Env>();
app.post("/__bench/keys", async (c) => {
  for (const token of await c.req.json() as string[]) apiKeys.set(token, crypto.randomUUID());
  return c.json({ keys: apiKeys.size });
});
app.use("/api/*", async (c, next) => {
  const createdAtMs = Date.now();
  const started = performance.now();
  const authorization = c.req.header("authorization");
  if (authorization !== undefined) {
    const apiKeyId = apiKeys.get(authorization.slice("Bearer ".length));
    if (apiKeyId === undefined) return c.json({ message: "Unauthorized" }, 401);
    c.set("apiKeyId", apiKeyId);
    c.set("userId", null);
  } else {
    const cookie = c.req.header("cookie") ?? "";
    const at = cookie.indexOf(`${cookieName}=`);
    const token = at === -1 ? undefined : cookie.slice(at + cookieName.length + 1).split(";")[0];
    if (token === undefined || !sessions.has(token)) return c.json({ message: "Unauthorized" }, 401);
    c.set("userId", userId);
    c.set("apiKeyId", null);
  }
  await next();
  for (const [name, value] of config.securityHeaders) c.res.headers.set(name, value);
  const response = c.get("sent") ?? null;
  let request: string | null = null;
  if (c.req.method === "POST") request = JSON.stringify({ body: await c.req.json() });
  log({
    endpoint: c.req.path,
    method: c.req.method,
    status: c.res.status,
    timeMs: Math.round(performance.now() - started),
    request,
    response,
    apiKeyId: c.get("apiKeyId"),
    userId: c.get("userId"),
    createdAtMs,
    userAgent: c.req.header("user-agent") ?? null,
  });
});

/** Answers JSON and keeps its text for the log (handlers here know their answer). */
function json(c: Context<Env>, value: unknown, status: 200 | 401 | 404 | 429 = 200) {
  const text = JSON.stringify(value);
  c.set("sent", text);
  return c.body(text, status, { "content-type": "application/json" });
}

app.get("/api/auth/user", (c) => json(c, config.user));
app.post("/api/iban/validate", zValidator("json", validateIbanBody), (c) => {
  return json(c, validateIban(c.req.valid("json").iban, formats));
});
app.get("/api/routing-codes/:code", zValidator("param", routingCodeParam), (c) => {
  const apiKeyId = c.get("apiKeyId");
  if (apiKeyId === null) return json(c, { message: "Unauthorized" }, 401);
  const nowMs = Date.now();
  const windowStart = nowMs - (nowMs % WINDOW_MS);
  const used = countHit(apiKeyId, "routing-code", windowStart);
  const resetSeconds = Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000);
  c.header("RateLimit-Policy", `${config.limitPerHour};w=3600`);
  c.header("RateLimit-Limit", String(config.limitPerHour));
  c.header("RateLimit-Remaining", String(Math.max(0, config.limitPerHour - used)));
  c.header("RateLimit-Reset", String(resetSeconds));
  const timestamp = new Date(nowMs).toISOString();
  if (used > config.limitPerHour) {
    return json(c, { success: false, error: "Rate limit exceeded", timestamp }, 429);
  }
  const record = routingCodes.get(c.req.valid("param").code);
  return record === undefined
    ? json(c, { success: false, error: "Routing code not found", timestamp }, 404)
    : json(c, { data: record, success: true, timestamp });
});

Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, app.fetch);
