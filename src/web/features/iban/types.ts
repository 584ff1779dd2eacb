/** The shapes this screen reads from /api/iban-configs and /api/iban/validate. */
export interface IbanConfig {
  id: string;
  countryCode: string;
  countryName: string | null;
  ibanLength: number;
  bankCodeLength: number;
  accountNumberLength: number;
  structure: string;
  exampleIban: string | null;
  status: string;
}

export interface IbanValidationResult {
  valid: boolean;
  details: {
    countryCode: string | null;
    checkDigits: string | null;
    bankCode: string | null;
    branchCode: string | null;
    accountNumber: string | null;
    electronic: string | null;
    print: string | null;
    error: string | null;
    institution?: { id: string; name: string; bicCode: string };
  };
}

export const IBAN_CONFIGS_KEY = "/api/iban-configs";
export const IBAN_VALIDATE_PATH = "/api/iban/validate";
