import assert from "node:assert/strict";
import {
  centralBankCodeFor,
  CONSOLE_CENTRAL_BANK_CODE,
  defaultConnectionDetails,
  issuerPrefixOf,
  MAX_CENTRAL_BANK_CODE_SEQUENCE,
} from "../../src/domain/national_routing.ts";

Deno.test("issuerPrefixOf() takes the first 3 letters, upper-cased, and rejects a non-letter prefix", () => {
  assert.deepEqual(issuerPrefixOf(CONSOLE_CENTRAL_BANK_CODE), { ok: true, value: "CBR" });
  assert.deepEqual(issuerPrefixOf(" nrb042"), { ok: true, value: "NRB" });
  for (const bad of ["", "C1R001", "12", "CB"]) {
    const result = issuerPrefixOf(bad);
    assert.equal(result.ok, false, bad);
  }
});

Deno.test("centralBankCodeFor() pads the sequence to 6 characters and refuses past 999", () => {
  assert.deepEqual(centralBankCodeFor("CBR", 1), { ok: true, value: "CBR001" });
  assert.deepEqual(centralBankCodeFor("CBR", 42), { ok: true, value: "CBR042" });
  assert.deepEqual(centralBankCodeFor("CBR", MAX_CENTRAL_BANK_CODE_SEQUENCE), { ok: true, value: "CBR999" });
  const exhausted = centralBankCodeFor("CBR", MAX_CENTRAL_BANK_CODE_SEQUENCE + 1);
  assert.equal(exhausted.ok, false);
  assert.equal(!exhausted.ok && exhausted.error.code, "central_bank_code_exhausted");
  assert.throws(() => centralBankCodeFor("CBR", 0), RangeError);
  assert.throws(() => centralBankCodeFor("cbr", 1), RangeError);
});

Deno.test("defaultConnectionDetails() derives the SWIFT and IBAN flags from the presence of a BIC and an IBAN prefix", () => {
  assert.deepEqual(defaultConnectionDetails({ swiftBicCode: "DEUTDEFF", ibanPrefix: null }), {
    messageFormats: ["iso20022", "swift_mt103"],
    currencies: ["USD", "EUR"],
    settlementFrequency: "real-time",
    swiftIntegration: true,
    ibanCompliant: false,
  });
  const blank = defaultConnectionDetails({ swiftBicCode: "  ", ibanPrefix: "DE" });
  assert.equal(blank.swiftIntegration, false);
  assert.equal(blank.ibanCompliant, true);
});
