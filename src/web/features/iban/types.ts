/** The shapes this screen reads from /api/iban-configs and /api/iban/validate. */
export type { IbanConfig } from "../../../server/features/iban/schemas.ts";
export type { IbanValidationResponse as IbanValidationResult } from "../../../server/features/iban/schemas.ts";

export const IBAN_CONFIGS_KEY = "/api/iban-configs";
export const IBAN_VALIDATE_PATH = "/api/iban/validate";
