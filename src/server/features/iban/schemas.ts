/** Request and response shapes of the IBAN endpoints (also the source of their OpenAPI description). */
import { z } from "zod";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { isBicCountryCode } from "../../../domain/bic.ts";
import { IBAN_CHECK_DIGIT_ALGORITHM, MAX_IBAN_LENGTH, normalizeIban } from "../../../domain/iban.ts";
import { optionalText } from "../../http/validation.ts";

export const IBAN_CONFIG_STATUSES = ["active", "inactive"] as const;
export const MAX_COUNTRY_NAME_LENGTH = 100;
export const MAX_STRUCTURE_LENGTH = 100;
export const MAX_REGISTRY_RELEASE_LENGTH = 50;
export const MAX_CHECK_DIGIT_ALGORITHM_LENGTH = 50;
/** Pasted print forms carry a space every four characters. */
export const MAX_EXAMPLE_IBAN_INPUT_LENGTH = 64;

/** Any string is validated (and answered with 200); only a missing or non-string iban is a 400. */
export const validateIbanBody = z.object({ iban: z.string() });

export const ibanInstitutionSchema = z.object({
  id: z.string(),
  name: z.string(),
  bicCode: z.string(),
});
export type IbanInstitution = z.infer<typeof ibanInstitutionSchema>;

export const ibanValidationResponseSchema = z.object({
  valid: z.boolean(),
  details: z.object({
    countryCode: z.string().nullable(),
    checkDigits: z.string().nullable(),
    bankCode: z.string().nullable(),
    branchCode: z.string().nullable(),
    accountNumber: z.string().nullable(),
    electronic: z.string().nullable(),
    print: z.string().nullable(),
    /** null when the IBAN is valid. */
    error: z.string().nullable(),
    /** Present when a registered BIC names the institution behind the bank code (docs/codes.md). */
    institution: ibanInstitutionSchema.optional(),
  }),
});
export type IbanValidationResponse = z.infer<typeof ibanValidationResponseSchema>;

const countryCode = z.string().trim().overwrite(asciiUpperCase).regex(/^[A-Z]{2}$/, "Must be two letters")
  .refine(isBicCountryCode, "Not an ISO 3166-1 country code (or XK)");
const count = z.number().int().min(0).max(MAX_IBAN_LENGTH);
const exampleIban = z.string().max(MAX_EXAMPLE_IBAN_INPUT_LENGTH).transform(normalizeIban)
  .pipe(z.string().min(1, "Required").max(MAX_IBAN_LENGTH));

const formatFields = {
  countryName: optionalText(MAX_COUNTRY_NAME_LENGTH),
  ibanLength: count,
  /** SWIFT registry notation of the BBAN, e.g. "4!a6!n8!n". */
  structure: z.string().trim().min(1, "Required").max(MAX_STRUCTURE_LENGTH),
  bankCodeOffset: count,
  bankCodeLength: count,
  branchCodeOffset: count.nullable(),
  branchCodeLength: count,
  accountNumberOffset: count,
  accountNumberLength: count,
  sepa: z.boolean(),
  registryRelease: optionalText(MAX_REGISTRY_RELEASE_LENGTH),
  checkDigitAlgorithm: z.string().trim().max(MAX_CHECK_DIGIT_ALGORITHM_LENGTH),
  exampleIban,
  status: z.enum(IBAN_CONFIG_STATUSES),
};

export const createIbanConfigBody = z.object({
  countryCode,
  ...formatFields,
  bankCodeOffset: formatFields.bankCodeOffset.default(0),
  branchCodeOffset: formatFields.branchCodeOffset.default(null),
  branchCodeLength: formatFields.branchCodeLength.default(0),
  /** Defaults to the end of the bank and branch codes, whichever ends later. */
  accountNumberOffset: formatFields.accountNumberOffset.optional(),
  sepa: formatFields.sepa.default(false),
  checkDigitAlgorithm: formatFields.checkDigitAlgorithm.default(IBAN_CHECK_DIGIT_ALGORITHM),
  status: formatFields.status.default("active"),
});
export type CreateIbanConfigInput = z.infer<typeof createIbanConfigBody>;

/** A correction: any subset of the format's fields; the country code itself is not editable. */
export const updateIbanConfigBody = z.strictObject({
  countryName: formatFields.countryName.optional(),
  ibanLength: formatFields.ibanLength.optional(),
  structure: formatFields.structure.optional(),
  bankCodeOffset: formatFields.bankCodeOffset.optional(),
  bankCodeLength: formatFields.bankCodeLength.optional(),
  branchCodeOffset: formatFields.branchCodeOffset.optional(),
  branchCodeLength: formatFields.branchCodeLength.optional(),
  accountNumberOffset: formatFields.accountNumberOffset.optional(),
  accountNumberLength: formatFields.accountNumberLength.optional(),
  sepa: formatFields.sepa.optional(),
  registryRelease: formatFields.registryRelease.optional(),
  checkDigitAlgorithm: formatFields.checkDigitAlgorithm.optional(),
  exampleIban: formatFields.exampleIban.optional(),
  status: formatFields.status.optional(),
}).refine((patch) => Object.keys(patch).length > 0, "At least one field is required");
export type UpdateIbanConfigInput = z.infer<typeof updateIbanConfigBody>;

/** Any two letters: a country without a format is a 404, not a 400. */
export const countryCodeParam = z.object({
  countryCode: z.string().overwrite(asciiUpperCase).regex(/^[A-Z]{2}$/, "Must be two letters"),
});

export const ibanConfigSchema = z.object({
  id: z.string(),
  countryCode: z.string(),
  countryName: z.string().nullable(),
  ibanLength: z.number().int(),
  bankCodeLength: z.number().int(),
  accountNumberLength: z.number().int(),
  structure: z.string(),
  bankCodeOffset: z.number().int(),
  branchCodeOffset: z.number().int().nullable(),
  branchCodeLength: z.number().int(),
  accountNumberOffset: z.number().int(),
  sepa: z.boolean(),
  registryRelease: z.string().nullable(),
  checkDigitAlgorithm: z.string(),
  exampleIban: z.string().nullable(),
  status: z.enum(IBAN_CONFIG_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
});
export type IbanConfig = z.infer<typeof ibanConfigSchema>;

export const ibanConfigListSchema = z.array(ibanConfigSchema);
