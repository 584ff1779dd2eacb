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
    [" DEUTDEFF", "LENGTH", "BIC must be 8 or 11 characters, got 9"],
    ["deutdeff", "LOWER_CASE", "BIC must be upper case"],
    ["DEUTDEFf", "LOWER_CASE", "BIC must be upper case"],
    ["DEUTDEFF50a", "LOWER_CASE", "BIC must be upper case"],
    [
      "DE-TDEFF",
      "PARTY_PREFIX",
      'BIC party prefix (characters 1-4) must be letters or digits, got "DE-T"',
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
      "LOCATION_CODE",
      'BIC location code (characters 7-8) must be letters or digits, got "F "',
    ],
    [
      "DEUTDEFF5_0",
      "BRANCH_CODE",
      'BIC branch code (characters 9-11) must be letters or digits, got "5_0"',
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
