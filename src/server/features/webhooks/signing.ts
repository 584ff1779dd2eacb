/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is "whsec_" and the
 * base64 of random bytes; each delivery carries webhook-id, webhook-timestamp (Unix seconds) and
 * webhook-signature "v1," + base64(HMAC-SHA-256(key, `${id}.${timestamp}.${body}`)), where the key is
 * the secret's base64 part decoded. The HMAC is node:crypto's.
 */
import { Buffer } from "node:buffer";
import { createHmac, randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";
/** The spec asks for 24 to 64 bytes. */
export const SECRET_BYTES = 32;
export const SIGNATURE_VERSION = "v1";

export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

export function webhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    "base64",
  );
  const mac = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`, "utf8").digest("base64");
  return `${SIGNATURE_VERSION},${mac}`;
}

/** The three headers of one signed delivery. */
export function signedHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": webhookSignature(secret, id, timestampSeconds, body),
  };
}
