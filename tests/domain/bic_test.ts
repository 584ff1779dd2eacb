import assert from "node:assert/strict";
import * as ibantools from "ibantools";
import { isBicCountryCode, ISO_3166_ALPHA2_CODES, validateBic } from "../../src/domain/bic.ts";

function errorOf(bic: string): { code: string; message: string } | null {
  const result = validateBic(bic);
  return result.ok ? null : result.error;
}

Deno.test("validateBic() accepts an 8-character BIC as a primary office without branch code", () => {
  assert.deepEqual(validateBic("DEUTDEFF"), {
    ok: true,
    value: {
      bic: "DEUTDEFF",
      bankCode: "DEUT",
      countryCode: "DE",
      locationCode: "FF",
      branchCode: null,
      isTestBic: false,
      isPassive: false,
      isReverseBilling: false,
      isPrimaryOffice: true,
    },
  });
});

Deno.test("validateBic() accepts an 11-character BIC and reports its branch", () => {
  assert.deepEqual(validateBic("DEUTDEFF500"), {
    ok: true,
    value: {
      bic: "DEUTDEFF500",
      bankCode: "DEUT",
      countryCode: "DE",
      locationCode: "FF",
      branchCode: "500",
      isTestBic: false,
      isPassive: false,
      isReverseBilling: false,
      isPrimaryOffice: false,
    },
  });
});

Deno.test("validateBic() treats branch XXX as the primary office", () => {
  const result = validateBic("NEDSZAJJXXX");
  assert.ok(result.ok);
  assert.equal(result.value.branchCode, "XXX");
  assert.equal(result.value.isPrimaryOffice, true);
});

Deno.test("validateBic() flags test, passive and reverse-billing BICs by the location's second character", () => {
  const flags = (bic: string) => {
    const result = validateBic(bic);
    assert.ok(result.ok, bic);
    const { isTestBic, isPassive, isReverseBilling } = result.value;
    return { isTestBic, isPassive, isReverseBilling };
  };
  assert.deepEqual(flags("ABCDGB20"), { isTestBic: true, isPassive: false, isReverseBilling: false });
  assert.deepEqual(flags("ABCDGB21XXX"), {
    isTestBic: false,
    isPassive: true,
    isReverseBilling: false,
  });
  assert.deepEqual(flags("ABCDGB22"), { isTestBic: false, isPassive: false, isReverseBilling: true });
  assert.deepEqual(flags("ABCDGB2L"), {
    isTestBic: false,
    isPassive: false,
    isReverseBilling: false,
  });
});

Deno.test("validateBic() accepts digits in the party prefix (ISO 9362:2022)", () => {
  const result = validateBic("1A2BDEFF");
  assert.ok(result.ok);
  assert.equal(result.value.bankCode, "1A2B");
});

Deno.test("validateBic() accepts XK, the code SWIFT uses for Kosovo", () => {
  const result = validateBic("NBKOXKPR");
  assert.ok(result.ok);
  assert.equal(result.value.countryCode, "XK");
});

Deno.test("validateBic() rejects each malformed BIC with its precise reason", () => {
  const cases: [string, string, string][] = [
    ["DEUTDEF", "LENGTH", "BIC must be 8 or 11 characters, got 7"],
    ["DEUTDEFF5", "LENGTH", "BIC must be 8 or 11 characters, got 9"],
    ["DEUTDEFF50", "LENGTH", "BIC must be 8 or 11 characters, got 10"],
    ["DEUTDEFF5000", "LENGTH", "BIC must be 8 or 11 characters, got 12"],
    ["", "LENGTH", "BIC must be 8 or 11 characters, got 0"],
    [
      " DEUTDEFF",
      "CHARACTER",
      'BIC has an invalid character " " (U+0020) at position 1: a BIC holds only letters A-Z and digits 0-9',
    ],
    ["deutdeff", "LOWER_CASE", "BIC must be upper case"],
    ["DEUTDEFf", "LOWER_CASE", "BIC must be upper case"],
    ["DEUTDEFF50a", "LOWER_CASE", "BIC must be upper case"],
    [
      "DE-TDEFF",
      "CHARACTER",
      'BIC has an invalid character "-" (U+002D) at position 3: a BIC holds only letters A-Z and digits 0-9',
    ],
    [
      "DEUTD1FF",
      "COUNTRY_CODE",
      'BIC country code (characters 5-6) must be two letters, got "D1"',
    ],
    ["DEUTQQFF", "UNKNOWN_COUNTRY", "BIC country code QQ is not an ISO 3166-1 country"],
    ["DEUTUKFF", "UNKNOWN_COUNTRY", "BIC country code UK is not an ISO 3166-1 country"],
    [
      "DEUTDEF ",
      "CHARACTER",
      'BIC has an invalid character " " (U+0020) at position 8: a BIC holds only letters A-Z and digits 0-9',
    ],
    [
      "DEUTDEFF5_0",
      "CHARACTER",
      'BIC has an invalid character "_" (U+005F) at position 10: a BIC holds only letters A-Z and digits 0-9',
    ],
  ];
  for (const [bic, code, message] of cases) {
    assert.deepEqual(errorOf(bic), { code, message }, JSON.stringify(bic));
  }
});

Deno.test("ISO_3166_ALPHA2_CODES holds the 249 official codes; XK is accepted only as Kosovo's BIC code", () => {
  assert.equal(ISO_3166_ALPHA2_CODES.size, 249);
  for (const cc of ["DE", "GB", "US", "AX", "BQ", "SS", "SX", "CW", "EH", "AQ", "UM"]) {
    assert.equal(isBicCountryCode(cc), true, cc);
  }
  assert.equal(ISO_3166_ALPHA2_CODES.has("XK"), false);
  assert.equal(isBicCountryCode("XK"), true);
  for (const cc of ["UK", "EU", "AN", "YU", "CS", "ZZ", "XX"]) {
    assert.equal(isBicCountryCode(cc), false, cc);
  }
});

Deno.test("validateBic() agrees with ibantools on well-formed upper-case BICs of its countries", () => {
  for (const bic of ["ABNANL2A", "NEDSZAJJXXX", "BNBGBGSF", "CBRLRUMM", "BOFAUS3N", "SOGEFRPPXXX"]) {
    assert.equal(validateBic(bic).ok, ibantools.isValidBIC(bic), bic);
  }
});

Deno.test("validateBic() names a character other than A-Z, a-z and 0-9 and its position before judging the length", () => {
  const only = ": a BIC holds only letters A-Z and digits 0-9";
  const cases: [string, string][] = [
    ["ABNA BE 2A", `BIC has an invalid character " " (U+0020) at position 5${only}`],
    ["ABNA-BE-2A", `BIC has an invalid character "-" (U+002D) at position 5${only}`],
    ["ABNA\u00adBE2A", `BIC has an invalid character "\u00ad" (U+00AD) at position 5${only}`],
    ["ABNABE\u200d2A", `BIC has an invalid character "\u200d" (U+200D) at position 7${only}`],
    ["NWBKGB2L\u200b", `BIC has an invalid character "\u200b" (U+200B) at position 9${only}`],
    // Letters outside A-Z are not read as their ASCII look-alikes.
    ["\u017FSCBSCSC", `BIC has an invalid character "\u017f" (U+017F) at position 1${only}`],
    ["D\u0131UTDEFF", `BIC has an invalid character "\u0131" (U+0131) at position 2${only}`],
    ["\uFB01NBOUS33", `BIC has an invalid character "\ufb01" (U+FB01) at position 1${only}`],
    ["NWBKGB2L\u{1F600}XX", `BIC has an invalid character "\u{1F600}" (U+1F600) at position 9${only}`],
  ];
  for (const [bic, message] of cases) {
    assert.deepEqual(errorOf(bic), { code: "CHARACTER", message }, JSON.stringify(bic));
  }
});
