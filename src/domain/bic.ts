/**
 * Business Identifier Codes (ISO 9362): party prefix, country code, location code and an
 * optional branch code. Pure module: no I/O.
 */
import { describeCharacter, firstNonAlphanumeric } from "./ascii.ts";

export const BIC_LENGTH_WITHOUT_BRANCH = 8;
export const BIC_LENGTH_WITH_BRANCH = 11;
export const BIC_PARTY_PREFIX_LENGTH = 4;
export const BIC_COUNTRY_CODE_LENGTH = 2;
export const BIC_LOCATION_CODE_LENGTH = 2;
export const BIC_BRANCH_CODE_LENGTH = 3;
/** The branch code of a primary office, equivalent to giving no branch code. */
export const PRIMARY_OFFICE_BRANCH_CODE = "XXX";
/** User-assigned code that SWIFT uses for Kosovo, which has no ISO 3166-1 code. */
export const KOSOVO_COUNTRY_CODE = "XK";

/** Second character of the location code that marks a test BIC. */
const TEST_LOCATION_MARK = "0";
/** … a passive participant (reachable only through another institution). */
const PASSIVE_LOCATION_MARK = "1";
/** … reverse billing (the receiver pays for the message). */
const REVERSE_BILLING_LOCATION_MARK = "2";

/** ISO 3166-1 alpha-2, all 249 officially assigned codes. */
export const ISO_3166_ALPHA2_CODES: ReadonlySet<string> = new Set(
  [
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE",
    "BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD",
    "CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM",
    "DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF",
    "GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU",
    "ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN",
    "KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME",
    "MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA",
    "NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM",
    "PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI",
    "SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK",
    "TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI",
    "VN VU WF WS YE YT ZA ZM ZW",
  ].join(" ").split(" "),
);

export interface BicParts {
  bic: string;
  /** The 4-character party prefix ("bank code" in the registry's tables). */
  bankCode: string;
  countryCode: string;
  locationCode: string;
  /** null when the BIC has 8 characters. */
  branchCode: string | null;
  isTestBic: boolean;
  isPassive: boolean;
  isReverseBilling: boolean;
  isPrimaryOffice: boolean;
}

export type BicErrorCode =
  | "CHARACTER"
  | "LENGTH"
  | "LOWER_CASE"
  | "COUNTRY_CODE"
  | "UNKNOWN_COUNTRY";

export type BicResult =
  | { ok: true; value: BicParts }
  | { ok: false; error: { code: BicErrorCode; message: string } };

const LETTERS = /^[A-Z]+$/;
const LOWER_CASE_LETTER = /[a-z]/;

/** Whether SWIFT accepts this country code in a BIC: ISO 3166-1 alpha-2 or Kosovo's XK. */
export function isBicCountryCode(countryCode: string): boolean {
  return ISO_3166_ALPHA2_CODES.has(countryCode) || countryCode === KOSOVO_COUNTRY_CODE;
}

function fail(code: BicErrorCode, message: string): BicResult {
  return { ok: false, error: { code, message } };
}

/**
 * Validates a BIC exactly as given: lower case is rejected rather than silently upper-cased,
 * because a BIC is an identifier that is stored and compared as registered. Checked in this
 * order: a character other than a letter or digit (named with its position, before the length it
 * would distort), length, lower case, country code.
 */
export function validateBic(input: string): BicResult {
  const stray = firstNonAlphanumeric(input);
  if (stray !== null) {
    return fail(
      "CHARACTER",
      `BIC has an invalid character ${
        describeCharacter(stray.character)
      } at position ${stray.position}: a BIC holds only letters A-Z and digits 0-9`,
    );
  }
  if (input.length !== BIC_LENGTH_WITHOUT_BRANCH && input.length !== BIC_LENGTH_WITH_BRANCH) {
    return fail(
      "LENGTH",
      `BIC must be ${BIC_LENGTH_WITHOUT_BRANCH} or ${BIC_LENGTH_WITH_BRANCH} characters, got ${input.length}`,
    );
  }
  if (LOWER_CASE_LETTER.test(input)) return fail("LOWER_CASE", "BIC must be upper case");

  // From here on every character is A-Z or 0-9. ISO 9362:2022 allows digits in the party prefix
  // (earlier editions: letters only), the location and the branch code; the country is letters.
  const bankCode = input.slice(0, 4);
  const countryCode = input.slice(4, 6);
  if (!LETTERS.test(countryCode)) {
    return fail(
      "COUNTRY_CODE",
      `BIC country code (characters 5-6) must be two letters, got "${countryCode}"`,
    );
  }
  if (!isBicCountryCode(countryCode)) {
    return fail(
      "UNKNOWN_COUNTRY",
      `BIC country code ${countryCode} is not an ISO 3166-1 country`,
    );
  }
  const locationCode = input.slice(6, 8);
  const branchCode = input.length === BIC_LENGTH_WITH_BRANCH ? input.slice(8) : null;
  const locationMark = locationCode[1];
  return {
    ok: true,
    value: {
      bic: input,
      bankCode,
      countryCode,
      locationCode,
      branchCode,
      isTestBic: locationMark === TEST_LOCATION_MARK,
      isPassive: locationMark === PASSIVE_LOCATION_MARK,
      isReverseBilling: locationMark === REVERSE_BILLING_LOCATION_MARK,
      isPrimaryOffice: branchCode === null || branchCode === PRIMARY_OFFICE_BRANCH_CODE,
    },
  };
}
