/**
 * Webhooks for downstream systems: which events may be subscribed to, the limits, and when a failed
 * delivery is tried again. Pure module: no I/O (docs/webhooks.md).
 */

/** The event kinds a webhook may subscribe to. */
export const WEBHOOK_EVENT_KINDS = [
  "institution_status_changed",
  "participant_suspended",
  "directory_edition_published",
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

export function isWebhookEventKind(kind: string): kind is WebhookEventKind {
  return (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind);
}

/** Registered (not removed) webhooks at most: each one multiplies every event's deliveries. */
export const MAX_WEBHOOKS = 25;
export const MAX_WEBHOOK_URL_LENGTH = 500;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;
export const MAX_EVENT_KINDS_PER_WEBHOOK = WEBHOOK_EVENT_KINDS.length;

/** A delivery's body is the event's data and a few fields; an event larger than this is not sent. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;
/** How much of an endpoint's answer is kept with each attempt. */
export const RESPONSE_EXCERPT_MAX_BYTES = 1024;
export const ATTEMPT_ERROR_MAX_LENGTH = 500;

export type DeliveryStatus = "pending" | "succeeded" | "failed";

/** A registered webhook as the API answers it (never with its secret). */
export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  eventKinds: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

/** The creation's answer: the only time the signing secret leaves the server. */
export type CreatedWebhook = Webhook & { secret: string };

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  succeeded: boolean;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventKind: string;
  eventSummary: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  completedAt: string | null;
  attempts: DeliveryAttempt[];
}

/** When a failed delivery is tried again: exponential back-off, at most `maxAttempts` tries in all. */
export interface RetryPolicy {
  firstRetryDelayMs: number;
  backoffFactor: number;
  maxRetryDelayMs: number;
  maxAttempts: number;
}

/** 30 s, 2 min, 8 min, 32 min, then hourly: eight tries over about 3 h 43 min. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  firstRetryDelayMs: 30_000,
  backoffFactor: 4,
  maxRetryDelayMs: 60 * 60_000,
  maxAttempts: 8,
};

/** The wait after the `attemptsMade`-th failed try (1 for the first). */
export function retryDelayMs(attemptsMade: number, policy: RetryPolicy): number {
  const delay = policy.firstRetryDelayMs * policy.backoffFactor ** (attemptsMade - 1);
  return Math.min(delay, policy.maxRetryDelayMs);
}

/** When to try again after `attemptsMade` failed tries of this round, or null: give up, the delivery failed. */
export function nextAttemptAfterFailure(attemptsMade: number, policy: RetryPolicy, now: Date): Date | null {
  if (attemptsMade >= policy.maxAttempts) return null;
  return new Date(now.getTime() + retryDelayMs(attemptsMade, policy));
}

/** The longest a delivery is retried for: the sum of the waits between its tries. */
export function retryWindowMs(policy: RetryPolicy): number {
  let total = 0;
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) total += retryDelayMs(attempt, policy);
  return total;
}

/** Standard Webhooks: any 2xx answer is a successful delivery; everything else is tried again. */
export function isDeliveredStatus(statusCode: number): boolean {
  return statusCode >= 200 && statusCode <= 299;
}
