/**
 * Idempotency-Key: a client that may have to retry a request (a timeout, a dropped connection)
 * sends a key of its own, and every request with that key gets the answer the first one got,
 * without the action running again. The middleware validates the header; `answerOnce` looks up and
 * keeps the first answer through a store the feature provides, inside the transaction that does the
 * action, so that concurrent retries wait for the first one and replay its answer.
 *
 * There is no limit on how long an answer is kept nor on its size: a key answers the same for as
 * long as the store holds it.
 */
import { zValidator } from "@hono/zod-validator";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
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
}

/** The first answer under a key, with the fingerprint of the request it answered. */
export interface KeptAnswer<A extends Answer> {
  requestHash: string;
  answer: A;
}

/** Where a feature keeps its first answers; both calls run in the transaction of the action. */
export interface AnswerStore<A extends Answer> {
  find(key: string): Promise<KeptAnswer<A> | null>;
  keep(key: string, kept: KeptAnswer<A>): Promise<void>;
}

export interface KeyedAnswer<A extends Answer> {
  answer: A;
  /** True when the answer is the one kept from an earlier request with the key. */
  replayed: boolean;
}

export const IDEMPOTENCY_MISMATCH = "Idempotency-Key was already used with a different request body";

/**
 * The answer kept under `key`, or else `produce`'s answer, kept under `key`. The same key with a
 * different request (another `requestHash`) is refused with 422.
 */
export async function answerOnce<A extends Answer>(
  store: AnswerStore<A>,
  key: string,
  requestHash: string,
  produce: () => Promise<A>,
): Promise<KeyedAnswer<A>> {
  const prior = await store.find(key);
  if (prior) {
    if (prior.requestHash !== requestHash) {
      throw new AppError("unprocessable", IDEMPOTENCY_MISMATCH, {
        extra: { reason: "idempotency_mismatch" },
      });
    }
    return { answer: prior.answer, replayed: true };
  }
  const answer = await produce();
  await store.keep(key, { requestHash, answer });
  return { answer, replayed: false };
}

/** Sends a keyed answer, marking a replay with IDEMPOTENT_REPLAYED_HEADER. */
export function sendKeyedAnswer(c: Context, { answer, replayed }: KeyedAnswer<Answer>): Response {
  if (replayed) c.header(IDEMPOTENT_REPLAYED_HEADER, "true");
  return c.json(answer.body, answer.status);
}
