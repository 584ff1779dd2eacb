/** Request and response shapes of the central bank connection endpoints (spec 3, 5 and 7). */
import { z } from "zod";
import {
  AUTHENTICATION_METHODS,
  CONNECTION_STATUSES,
  CONNECTION_TYPES,
  CURRENCIES,
  MESSAGE_STANDARDS,
} from "../../../../db/schema.ts";
import { validateBic } from "../../../domain/bic.ts";
import { parseNonNegativeMoney } from "../../../domain/money.ts";
import { exceedsJsonDepth, jsonByteLength } from "../../../domain/json_limits.ts";
import { optionalText, requiredText, resultValue } from "../../http/validation.ts";
import { checkEndpointUrl } from "../../http/outbound.ts";

export const MAX_PARTNER_NAME_LENGTH = 255;
export const MAX_PARTNER_BANK_CODE_LENGTH = 20;
export const MAX_API_ENDPOINT_LENGTH = 500;
/** Credentials are a handful of identifiers and keys, never a document. */
export const MAX_CREDENTIALS_CONFIG_BYTES = 16 * 1024;
export const MAX_JSON_DEPTH = 8;

/** Blank or absent becomes null; otherwise the domain BIC rule with its precise reason. */
export const optionalBic = z.string().trim().nullish().transform((value) => value || null).superRefine(
  (bic, ctx) => {
    if (bic === null) return;
    const result = validateBic(bic);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  },
);

export const optionalEndpoint = optionalText(MAX_API_ENDPOINT_LENGTH).superRefine((endpoint, ctx) => {
  if (endpoint === null) return;
  const checked = checkEndpointUrl(endpoint);
  if (!checked.ok) ctx.addIssue({ code: "custom", message: checked.message });
});

/** A number (1250.5) or decimal string ("1250.50") with at most 2 decimals, stored as minor units; blank or null: no limit. */
export const optionalLimitMinor = z.union([z.number(), z.string()]).nullish().transform((value, ctx) => {
  if (value === null || value === undefined || value === "") return null;
  return Number(resultValue(parseNonNegativeMoney(value, "dailySettlementLimit"), ctx));
});

export const credentialsConfigSchema = z.record(z.string(), z.unknown()).superRefine((document, ctx) => {
  if (exceedsJsonDepth(document, MAX_JSON_DEPTH)) {
    ctx.addIssue({ code: "custom", message: `Must nest at most ${MAX_JSON_DEPTH} levels deep` });
  } else if (jsonByteLength(document) > MAX_CREDENTIALS_CONFIG_BYTES) {
    ctx.addIssue({
      code: "custom",
      message: `Must be at most ${MAX_CREDENTIALS_CONFIG_BYTES} bytes of JSON`,
    });
  }
});

export const createConnectionBody = z.object({
  partnerCentralBank: requiredText(MAX_PARTNER_NAME_LENGTH),
  connectionType: z.enum(CONNECTION_TYPES).default("correspondent"),
  partnerBankCode: optionalText(MAX_PARTNER_BANK_CODE_LENGTH),
  partnerSwiftCode: optionalBic,
  connectionStatus: z.enum(CONNECTION_STATUSES).default("pending"),
  messageStandard: z.enum(MESSAGE_STANDARDS),
  settlementCurrency: z.enum(CURRENCIES).default("USD"),
  dailySettlementLimit: optionalLimitMinor,
  apiEndpoint: optionalEndpoint,
  authenticationMethod: z.enum(AUTHENTICATION_METHODS).default("api_key"),
  credentialsConfig: credentialsConfigSchema.nullish().transform((value) => value ?? null),
});
export type CreateConnectionInput = z.infer<typeof createConnectionBody>;

export const connectionIdParam = z.object({ id: z.uuid() });

export const connectionSchema = z.object({
  id: z.string(),
  partnerCentralBank: z.string(),
  connectionType: z.enum(CONNECTION_TYPES),
  partnerBankCode: z.string().nullable(),
  partnerSwiftCode: z.string().nullable(),
  connectionStatus: z.enum(CONNECTION_STATUSES),
  messageStandard: z.enum(MESSAGE_STANDARDS),
  settlementCurrency: z.enum(CURRENCIES),
  /** Decimal string ("1250.50") or null for no limit. */
  dailySettlementLimit: z.string().nullable(),
  apiEndpoint: z.string().nullable(),
  authenticationMethod: z.enum(AUTHENTICATION_METHODS).nullable(),
  /** Secret values masked (src/domain/connection_credentials.ts). */
  credentialsConfig: z.unknown(),
  establishedDate: z.string(),
  lastConnectedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdByUser: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() })
    .nullable(),
});
export type Connection = z.infer<typeof connectionSchema>;

export const connectionTestResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** Milliseconds from the start of the test to the endpoint's answer (or the failure). */
  latency: z.number().int(),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>;
