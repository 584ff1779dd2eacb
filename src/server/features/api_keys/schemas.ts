/** API key management (spec 2.14): request and response shapes. */
import { z } from "zod";
import { MAX_API_KEY_NAME_LENGTH } from "../../../domain/public_api.ts";
import { requiredText } from "../../http/validation.ts";

export const API_KEY_STATUSES = ["active", "expired", "revoked"] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

const DAY_MS = 86_400_000;

/**
 * An ISO-8601 timestamp, or a calendar date meaning "valid through that day (UTC)", so the key
 * expires at the following midnight UTC. Blank or absent: the key does not expire.
 */
const expiry = z.union([z.iso.datetime({ offset: true }), z.iso.date(), z.literal("")]).nullish()
  .transform((value) => {
    if (!value) return null;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      return new Date(Date.parse(`${value}T00:00:00Z`) + DAY_MS).toISOString();
    }
    return new Date(value).toISOString();
  })
  .refine((value) => value === null || Date.parse(value) > Date.now(), "Expiry must be in the future");

export const createApiKeySchema = z.object({
  name: requiredText(MAX_API_KEY_NAME_LENGTH),
  expiresAt: expiry,
});
export type CreateApiKeyInput = z.output<typeof createApiKeySchema>;

export const apiKeyIdParamSchema = z.object({ id: z.string().min(1).max(255) });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key ("cbr_live_Ab3x"), to tell keys apart; never the whole key. */
  keyPrefix: z.string(),
  status: z.enum(API_KEY_STATUSES),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  /** Requests per hour on each documented endpoint, below the endpoint's own limit; null: that limit alone. */
  limitPerHour: z.number().int().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The creation answer is the only time the key itself is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
