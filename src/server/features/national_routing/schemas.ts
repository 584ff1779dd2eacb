/** Request and response shapes of the national routing registry endpoints (spec 3, 5 and 7). */
import { z } from "zod";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import {
  ACCOUNT_NUMBER_FORMATS,
  CONNECTION_PROTOCOLS,
  REGISTRY_INSTITUTION_TYPES,
} from "../../../../db/schema.ts";
import { validateBic } from "../../../domain/bic.ts";
import { CENTRAL_BANK_CODE_LENGTH, issuerPrefixOf } from "../../../domain/national_routing.ts";
import { exceedsJsonDepth, jsonByteLength } from "../../../domain/json_limits.ts";
import { MAX_REASON_LENGTH } from "../../../domain/approval.ts";
import { PARTICIPANT_STATUSES } from "../../../domain/code_lifecycle.ts";
import { optionalText, requiredEnum, requiredText } from "../../http/validation.ts";
import { pendingChangeSchema } from "../../registry_history/code_changes.ts";
import { instantField } from "../../registry_history/instants.ts";

export const MAX_REGISTRY_NUMBER_LENGTH = 20;
export const MAX_INSTITUTION_NAME_LENGTH = 255;
export const MAX_NATIONAL_BANK_CODE_LENGTH = 8;
export const MAX_IBAN_PREFIX_LENGTH = 4;
export const MAX_SETTLEMENT_ACCOUNT_LENGTH = 34;
/** Connection details are a small descriptive document, not a payload store. */
export const MAX_CONNECTION_DETAILS_BYTES = 16 * 1024;
export const MAX_JSON_DEPTH = 8;

/** Country code (2 letters) optionally followed by the 2 IBAN check digits: "DE", "DE89". */
const IBAN_PREFIX = /^[A-Z]{2}(\d{2})?$/;

/** Blank (or absent) becomes null; otherwise validated by the domain BIC rule with its precise reason. */
const optionalBic = z.string().trim().nullish().transform((value) => value || null).superRefine(
  (bic, ctx) => {
    if (bic === null) return;
    const result = validateBic(bic);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  },
);

const ibanPrefix = optionalText(MAX_IBAN_PREFIX_LENGTH)
  .transform((value) => (value === null ? null : asciiUpperCase(value)))
  .refine((value) => value === null || IBAN_PREFIX.test(value), {
    message: "Must be a 2-letter country code, optionally followed by 2 check digits",
  });

const centralBankCode = z.string().trim().max(CENTRAL_BANK_CODE_LENGTH).optional().superRefine(
  (code, ctx) => {
    if (code === undefined || code === "") return;
    const prefix = issuerPrefixOf(code);
    if (!prefix.ok) ctx.addIssue({ code: "custom", message: prefix.error.message });
  },
);

export const connectionDetailsSchema = z.record(z.string(), z.unknown()).superRefine((document, ctx) => {
  if (exceedsJsonDepth(document, MAX_JSON_DEPTH)) {
    ctx.addIssue({ code: "custom", message: `Must nest at most ${MAX_JSON_DEPTH} levels deep` });
  } else if (jsonByteLength(document) > MAX_CONNECTION_DETAILS_BYTES) {
    ctx.addIssue({
      code: "custom",
      message: `Must be at most ${MAX_CONNECTION_DETAILS_BYTES} bytes of JSON`,
    });
  }
});

export const createNationalRoutingBody = z.object({
  /** Only its issuer prefix is used; the server assigns the unique code (see src/domain/national_routing.ts). */
  centralBankCode,
  institutionType: z.enum(REGISTRY_INSTITUTION_TYPES),
  registryNumber: requiredText(MAX_REGISTRY_NUMBER_LENGTH),
  institutionName: requiredText(MAX_INSTITUTION_NAME_LENGTH),
  nationalBankCode: requiredText(MAX_NATIONAL_BANK_CODE_LENGTH),
  accountNumberFormat: z.enum(ACCOUNT_NUMBER_FORMATS).default("10-digit"),
  ibanPrefix,
  swiftBicCode: optionalBic,
  participantStatus: z.enum(PARTICIPANT_STATUSES).default("active"),
  connectionProtocol: z.enum(CONNECTION_PROTOCOLS).default("iso20022"),
  settlementAccount: optionalText(MAX_SETTLEMENT_ACCOUNT_LENGTH),
  /** Absent or null: the default of spec 5, derived from the BIC and IBAN prefix. */
  connectionDetails: connectionDetailsSchema.nullish(),
  /** Absent: in force at once; later: stored inactive and `participantStatus` from then (docs/national_routing.md). */
  effectiveFrom: instantField,
});
export type CreateNationalRoutingInput = z.infer<typeof createNationalRoutingBody>;

export const nationalRoutingEntrySchema = z.object({
  id: z.string(),
  centralBankCode: z.string(),
  institutionType: z.enum(REGISTRY_INSTITUTION_TYPES),
  registryNumber: z.string(),
  institutionName: z.string(),
  nationalBankCode: z.string(),
  accountNumberFormat: z.enum(ACCOUNT_NUMBER_FORMATS),
  ibanPrefix: z.string().nullable(),
  swiftBicCode: z.string().nullable(),
  participantStatus: z.string(),
  connectionProtocol: z.enum(CONNECTION_PROTOCOLS).nullable(),
  settlementAccount: z.string().nullable(),
  lastRegistryUpdate: z.string(),
  registeredBy: z.string().nullable(),
  registrationDate: z.string(),
  connectionDetails: z.unknown(),
});
export type NationalRoutingEntry = z.infer<typeof nationalRoutingEntrySchema>;

/** A list row also carries its changes still to come. */
export const nationalRoutingListItemSchema = nationalRoutingEntrySchema.extend({
  pendingChanges: z.array(pendingChangeSchema),
});
export type NationalRoutingListItem = z.infer<typeof nationalRoutingListItemSchema>;

export const MAX_ENTRY_ID_LENGTH = 255;
export const nationalRoutingIdParam = z.object({ id: requiredText(MAX_ENTRY_ID_LENGTH) });

/** A participant's status from a date, four-eyes (docs/national_routing.md). */
export const participantStatusBody = z.object({
  participantStatus: requiredEnum(PARTICIPANT_STATUSES),
  effectiveFrom: instantField,
  reason: requiredText(MAX_REASON_LENGTH),
});
export type ParticipantStatusChange = z.infer<typeof participantStatusBody>;
