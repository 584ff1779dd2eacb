/**
 * The rows of the API request log (spec 3, api_logs): what a request leaves behind, and how it
 * becomes a redacted row.
 */
import { v7 as timeOrderedUuid } from "uuid";
import { maskCardNumbersInText } from "../../domain/card.ts";
import {
  loggedPayload,
  loggedPayloadFromText,
  loggedPayloadJson,
  MAX_LOGGED_PAYLOAD_CHARS,
} from "../../domain/redaction.ts";
import { BoundedMap } from "../bounded_map.ts";
import type { BatchStatement } from "../db/database.ts";

export const MAX_LOGGED_ENDPOINT_LENGTH = 255;
/** Long answers whose logged form is kept (at most about 64 × 256 KiB of text, usually far less). */
export const MAX_REMEMBERED_LONG_ANSWERS = 64;

export type CapturedBody =
  | { kind: "text"; text: string }
  | { kind: "value"; value: unknown }
  | { kind: "fields"; fields: Record<string, string | string[]> };

/**
 * What a request left behind, by reference: ids, timestamps, redaction and serialisation happen
 * when the batch is written, so the request itself pays for little more than an array push.
 */
export interface CapturedRequest {
  endpoint: string;
  method: string;
  clientIp: string | null;
  userAgent: string | null;
  responseStatus: number;
  responseTimeMs: number;
  query: Record<string, string | string[]> | null;
  body: CapturedBody | null;
  /** The body sent, when the response was JSON. */
  response: string | null;
  apiKeyId: string | null;
  userId: string | null;
  createdAtMs: number;
}

/** The query and the body, each redacted and cut to a preview on its own, as JSON text. */
function requestPayloadJson(entry: CapturedRequest): string | null {
  const payload: Record<string, unknown> = {};
  if (entry.query) payload.query = loggedPayload(entry.query);
  if (entry.body?.kind === "fields") payload.body = loggedPayload(entry.body.fields);
  else if (entry.body?.kind === "value") payload.body = loggedPayload(entry.body.value);
  else if (entry.body?.kind === "text" && entry.body.text !== "") {
    payload.body = loggedPayloadFromText(entry.body.text);
  }
  return Object.keys(payload).length === 0 ? null : JSON.stringify(payload);
}

/**
 * The logged form of answers longer than a preview, by their text. A page of institutions is
 * parsed, redacted and serialised whole to keep its first characters, which is costly; the same page
 * is answered from the page cache again and again, and the same text always gives the same logged form.
 */
const loggedLongAnswers = new BoundedMap<string, string | null>(MAX_REMEMBERED_LONG_ANSWERS);

function responsePayloadJson(entry: CapturedRequest): string | null {
  const text = entry.response;
  if (text === null) return null;
  if (text.length <= MAX_LOGGED_PAYLOAD_CHARS) return loggedPayloadJson(text);
  const known = loggedLongAnswers.get(text);
  if (known !== undefined) return known;
  const logged = loggedPayloadJson(text);
  loggedLongAnswers.set(text, logged);
  return logged;
}

/** Rows per prepared INSERT: one statement per 50 rows costs about 20% less per row than one per row. */
export const API_LOG_ROWS_PER_INSERT = 50;
const insertSql = (rows: number) =>
  `INSERT INTO api_logs (id, endpoint, method, client_ip, user_agent, response_status, response_time,
  request_payload, response_payload, api_key_id, user_id, created_at) VALUES ${
    Array(rows).fill("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")
  }`;
const INSERT_CHUNK_SQL = insertSql(API_LOG_ROWS_PER_INSERT);
const INSERT_ONE_SQL = insertSql(1);
const LOG_ROW_COLUMNS = 12;
const INSERT_FROM_JSON_SQL = `INSERT INTO api_logs (id, endpoint, method, client_ip, user_agent,
  response_status, response_time, request_payload, response_payload, api_key_id, user_id, created_at)
  SELECT ${Array.from({ length: LOG_ROW_COLUMNS }, (_, k) => `value ->> ${k}`).join(", ")}
  FROM json_each(?) ORDER BY key`;

/** One row's values in the INSERT's column order; every value satisfies the table's CHECKs by construction. */
export type LogRow = ReturnType<typeof rowValues>;

function rowValues(entry: CapturedRequest, random: Uint8Array) {
  return [
    // Time-ordered (RFC 9562 v7): new rows append to the id index instead of splitting pages at
    // random, which cut the cost of writing a log row by about 40% on a 100,000-row table.
    timeOrderedUuid({ msecs: entry.createdAtMs, random }),
    maskCardNumbersInText(entry.endpoint).slice(0, MAX_LOGGED_ENDPOINT_LENGTH),
    entry.method,
    entry.clientIp,
    entry.userAgent,
    entry.responseStatus,
    entry.responseTimeMs,
    requestPayloadJson(entry),
    responsePayloadJson(entry),
    entry.apiKeyId,
    entry.userId,
    new Date(entry.createdAtMs).toISOString(),
  ];
}

/**
 * The redacted rows of `entries`. Built before the write transaction begins: the redaction is most
 * of the work, and the transaction holds the database's write lock for every other connection.
 */
export function logRowsOf(entries: readonly CapturedRequest[]): LogRow[] {
  const random = randomBytes(entries.length * UUID_BYTES);
  return entries.map((entry, index) =>
    rowValues(entry, random.subarray(index * UUID_BYTES, (index + 1) * UUID_BYTES))
  );
}

const UUID_BYTES = 16;
/** The most crypto.getRandomValues() fills in one call (Web Crypto's quota). */
const MAX_RANDOM_BYTES_PER_CALL = 65_536;

/** The batch's randomness in a few calls: uuid asks the system for 16 bytes per id otherwise. */
function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let start = 0; start < length; start += MAX_RANDOM_BYTES_PER_CALL) {
    crypto.getRandomValues(bytes.subarray(start, start + MAX_RANDOM_BYTES_PER_CALL));
  }
  return bytes;
}

/**
 * The one INSERT that writes rows on the primary over the network (the replicated roles), from each
 * row's values as JSON (`JSON.stringify(row)`), sent as a single JSON text and taken apart by
 * SQLite's json_each. With an argument per value the client encodes 60,000 typed arguments per
 * batch of 5,000 rows: in unpinned runs of bench/replication.ts a regional node then served 0.68–0.73×
 * a standalone node's IBAN validations a second, and 0.79–0.87× with the rows as one JSON text. JSON
 * keeps every value's type: texts stay texts, whole numbers integers, nulls null.
 */
export function logRowsInsertFromJson(rowsJson: readonly string[]): BatchStatement {
  return { sql: INSERT_FROM_JSON_SQL, args: [`[${rowsJson.join(",")}]`] };
}

/** The INSERTs that write `rows`: chunks of API_LOG_ROWS_PER_INSERT rows, then one row each. */
export function logRowInserts(rows: readonly LogRow[]): BatchStatement[] {
  const inserts: BatchStatement[] = [];
  let start = 0;
  for (; start + API_LOG_ROWS_PER_INSERT <= rows.length; start += API_LOG_ROWS_PER_INSERT) {
    inserts.push({ sql: INSERT_CHUNK_SQL, args: rows.slice(start, start + API_LOG_ROWS_PER_INSERT).flat() });
  }
  for (const row of rows.slice(start)) inserts.push({ sql: INSERT_ONE_SQL, args: row });
  return inserts;
}
