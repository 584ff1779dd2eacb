/**
 * Idempotency-Key: a client that may have to retry a request (a timeout, a dropped connection, a
 * 503 while headquarters cannot be reached) sends a key of its own, and every request with that key
 * gets the answer the first one got, without the action running again. Every route that moves money
 * or records account data takes one (docs/ledger.md, "Idempotency-Key").
 *
 * A key belongs to its user and names one request on one route: the same key with another body, or
 * on another route, is refused with 422. The key's record and its answer are written in the
 * transaction that performs the action (`answerOnce`), so a key is never used up without the
 * action's effect, nor the effect repeated. An action outside any transaction (a provider's call)
 * claims its key first (`claimKey`) and keeps its answer when it has one (`keepClaimedAnswer`);
 * while the claim is open, a retry answers 409.
 *
 * An answer is kept for as long as the database holds it, whatever its size.
 */
import { createHash } from "node:crypto";
import { zValidator } from "@hono/zod-validator";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { type Database, databaseInTransaction, inSavepoint, statementsOf, type Tx } from "../db/database.ts";
import { AppError } from "./errors.ts";
import { validationError } from "./validation.ts";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** Set to "true" on an answer that was kept from an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Visible ASCII only, so a key survives proxies and logs unchanged. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/;

export const idempotencyKeySchema = z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).regex(
  IDEMPOTENCY_KEY_PATTERN,
  "Idempotency-Key must be visible ASCII characters",
);

/** Hono hands the validator every header under its lower-case name. */
const HEADER_FIELD = "idempotency-key";
const idempotencyHeaders = z.object({ [HEADER_FIELD]: idempotencyKeySchema.optional() });
type IdempotencyHeaders = z.output<typeof idempotencyHeaders>;

/** Validates the Idempotency-Key header: a bad key answers 400 naming the header. */
export function idempotencyKey() {
  return zValidator("header", idempotencyHeaders, (result) => {
    if (!result.success) {
      throw validationError(
        result.error.issues.map((issue) => ({ ...issue, path: [IDEMPOTENCY_KEY_HEADER] })),
      );
    }
  });
}

/** The key of a request validated by `idempotencyKey()` (`c.req.valid("header")`), or null when it has none. */
export function keyOf(headers: IdempotencyHeaders): string | null {
  return headers[HEADER_FIELD] ?? null;
}

/** An answer as data: its status and the body sent as JSON. */
export interface Answer<Body = unknown> {
  status: ContentfulStatusCode;
  body: Body;
  /**
   * Fields sent with this answer only and never kept (a new user's one-time password): a replay
   * answers the body without them.
   */
  secret?: Record<string, unknown>;
}

export interface KeyedAnswer<A extends Answer = Answer> {
  answer: A;
  /** True when the answer is the one kept from an earlier request with the key. */
  replayed: boolean;
}

/** A request as its key's record knows it. */
export interface KeyedRequest {
  userId: string;
  /** The route's name, e.g. "card_issue": a key names one request on one route. */
  route: string;
  key: string | null;
  /**
   * The request once validated, so that "10" and "10.00" are the same request. Secret values (card
   * and account numbers) appear here only as keyed fingerprints: the record keeps a plain hash of it.
   */
  request: unknown;
}

export const IDEMPOTENCY_MISMATCH = "Idempotency-Key was already used with a different request body";
const IDEMPOTENCY_OTHER_ROUTE = "Idempotency-Key was already used for a different operation";
const IDEMPOTENCY_IN_PROGRESS =
  "A request with this Idempotency-Key is still in progress; send it again later for its answer";

/**
 * The refusals an action answers from the data as it stands (bad values, not allowed, no such
 * record, a conflict, a rule): kept under the key like a success. Anything else (a 500, a 503)
 * rolls the transaction back and leaves the key unused, so a retry runs again.
 */
const KEPT_REFUSALS: ReadonlySet<number> = new Set([400, 403, 404, 409, 422]);

/** JSON with object keys in order and bigints as decimal strings: one text per request. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => {
    if (typeof item === "bigint") return item.toString();
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** SHA-256 over the canonical request. */
function requestHash(request: unknown): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

interface KeyRecord {
  route: string;
  requestHash: string;
  /** Null while a claimed request is still under way. */
  answer: Answer | null;
  createdAt: string;
}

async function findRecord(tx: Tx, userId: string, key: string): Promise<KeyRecord | null> {
  const row = await statementsOf(tx).get<{
    route: string;
    requestHash: string;
    responseStatus: number | null;
    responseBody: string | null;
    createdAt: string;
  }>(
    `SELECT route, request_hash AS requestHash, response_status AS responseStatus,
      response_body AS responseBody, created_at AS createdAt
    FROM idempotency_keys WHERE user_id = ? AND idempotency_key = ?`,
    [userId, key],
  );
  if (!row) return null;
  const answer = row.responseStatus === null || row.responseBody === null
    ? null
    : { status: row.responseStatus as ContentfulStatusCode, body: JSON.parse(row.responseBody) };
  return { route: row.route, requestHash: row.requestHash, answer, createdAt: row.createdAt };
}

/** Inserts the key's record: with its answer, or with none yet (a claim). */
async function insertRecord(tx: Tx, keyed: KeyedRequest, hash: string, answer: Answer | null): Promise<void> {
  const now = new Date().toISOString();
  await statementsOf(tx).run(
    `INSERT INTO idempotency_keys
      (user_id, idempotency_key, route, request_hash, response_status, response_body, created_at, answered_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      keyed.userId,
      keyed.key,
      keyed.route,
      hash,
      answer?.status ?? null,
      answer === null ? null : JSON.stringify(answer.body),
      now,
      answer === null ? null : now,
    ],
  );
}

/** Refuses a key already used on another route or with another body. */
function checkSameRequest(record: KeyRecord, route: string, hash: string): void {
  if (record.route !== route) {
    throw new AppError("unprocessable", IDEMPOTENCY_OTHER_ROUTE, {
      extra: { reason: "idempotency_mismatch" },
    });
  }
  if (record.requestHash !== hash) {
    throw new AppError("unprocessable", IDEMPOTENCY_MISMATCH, { extra: { reason: "idempotency_mismatch" } });
  }
}

const inProgress = () =>
  new AppError("conflict", IDEMPOTENCY_IN_PROGRESS, { extra: { reason: "idempotency_in_progress" } });

/**
 * Runs `act` in a savepoint of `tx`: its answer, or its refusal (KEPT_REFUSALS) as an answer with
 * everything it wrote rolled back; any other failure is thrown.
 */
async function answerOrRefusal(tx: Tx, act: () => Promise<Answer>): Promise<Answer> {
  try {
    return await inSavepoint(statementsOf(tx), act);
  } catch (error) {
    if (error instanceof AppError && KEPT_REFUSALS.has(error.status)) {
      return { status: error.status, body: error.toBody() };
    }
    throw error;
  }
}

/**
 * One transaction: the answer kept under the request's key, or else `produce`'s, then kept with it.
 * `produce` gets the database as seen from inside that transaction, so a feature's service runs in
 * it unchanged. Without a key, `produce` runs in the transaction and its failures are thrown as usual.
 */
export async function answerOnce(
  db: Database,
  keyed: KeyedRequest,
  produce: (inner: Database) => Promise<Answer>,
): Promise<KeyedAnswer> {
  return await db.transaction(async (tx) => {
    const inner = databaseInTransaction(db, tx);
    if (keyed.key === null) return { answer: await produce(inner), replayed: false };
    const hash = requestHash(keyed.request);
    const record = await findRecord(tx, keyed.userId, keyed.key);
    if (record) {
      checkSameRequest(record, keyed.route, hash);
      if (record.answer === null) throw inProgress();
      return { answer: record.answer, replayed: true };
    }
    const answer = await answerOrRefusal(tx, () => produce(inner));
    await insertRecord(tx, keyed, hash, answer);
    return { answer, replayed: false };
  });
}

/** What a claim does with a claim left open too long: its owner died or lost the database mid-call. */
export interface AbandonedClaim {
  /** After this long the claimed request can no longer be under way. */
  afterMs: number;
  /** The answer kept for it from then on, given when the request was claimed. */
  answer: (claimedAt: string) => Answer;
}

/**
 * In `tx`, for an action run outside any transaction: null when the key is now claimed for this
 * request (act, then `keepClaimedAnswer`), or the answer to give instead, kept from an earlier
 * request with the key. A claim still open answers 409, until `abandoned.afterMs` has passed: then
 * `abandoned.answer` becomes the key's answer.
 */
export async function claimKey(
  tx: Tx,
  keyed: KeyedRequest & { key: string },
  abandoned: AbandonedClaim,
): Promise<KeyedAnswer | null> {
  const hash = requestHash(keyed.request);
  const record = await findRecord(tx, keyed.userId, keyed.key);
  if (!record) {
    await insertRecord(tx, keyed, hash, null);
    return null;
  }
  checkSameRequest(record, keyed.route, hash);
  if (record.answer !== null) return { answer: record.answer, replayed: true };
  if (Date.now() - Date.parse(record.createdAt) < abandoned.afterMs) throw inProgress();
  const answer = abandoned.answer(record.createdAt);
  await keepClaimedAnswer(tx, keyed.userId, keyed.key, answer);
  return { answer, replayed: true };
}

/**
 * Keeps the answer of a request that claimed its key, in the transaction that records its outcome.
 * A claim already settled as abandoned keeps that answer: a key answers one way once it has answered.
 */
export async function keepClaimedAnswer(tx: Tx, userId: string, key: string, answer: Answer): Promise<void> {
  await statementsOf(tx).run(
    `UPDATE idempotency_keys SET response_status = ?, response_body = ?, answered_at = ?
    WHERE user_id = ? AND idempotency_key = ? AND response_status IS NULL`,
    [answer.status, JSON.stringify(answer.body), new Date().toISOString(), userId, key],
  );
}

/**
 * Sends a keyed answer, marking a replay with IDEMPOTENT_REPLAYED_HEADER. An answer carrying a
 * secret is never stored by a cache either.
 */
export function sendKeyedAnswer(c: Context, { answer, replayed }: KeyedAnswer): Response {
  if (replayed) c.header(IDEMPOTENT_REPLAYED_HEADER, "true");
  if (answer.secret === undefined) return c.json(answer.body, answer.status);
  c.header("Cache-Control", "no-store");
  return c.json({ ...(answer.body as Record<string, unknown>), ...answer.secret }, answer.status);
}
