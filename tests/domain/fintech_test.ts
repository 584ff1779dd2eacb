import assert from "node:assert/strict";
import fc from "fast-check";
import { generateCardNumber, luhnCheckDigit } from "../../src/domain/card.ts";
import {
  isVisaCardNumber,
  maskAccountNumber,
  parseProviderAmount,
  validateBankAccountNumber,
  validateCardNumber,
  validateCurrency,
  validateRoutingNumber,
} from "../../src/domain/fintech.ts";

const USD = { code: "USD", minorDigits: 2 };
const JPY = { code: "JPY", minorDigits: 0 };

function errorCode(result: { ok: boolean; error?: { code: string } }): string {
  return result.ok ? "" : result.error!.code;
}

Deno.test("validateBankAccountNumber() accepts 4 to 17 digits and strips spaces and dashes", () => {
  assert.deepEqual(validateBankAccountNumber("1234"), { ok: true, value: "1234" });
  assert.deepEqual(validateBankAccountNumber("1234-5678 9012"), { ok: true, value: "123456789012" });
  assert.deepEqual(validateBankAccountNumber("1".repeat(17)), { ok: true, value: "1".repeat(17) });
});

Deno.test("validateBankAccountNumber() rejects letters, wrong lengths and all zeros without echoing the input", () => {
  for (const input of ["123", "1".repeat(18), "12a45", "", "0000000", "12.34"]) {
    const result = validateBankAccountNumber(input);
    assert.equal(errorCode(result), "invalid_account_number", JSON.stringify(input));
    if (!result.ok && input.length > 0) assert.ok(!result.error.message.includes(input));
  }
});

Deno.test("validateRoutingNumber() requires the ABA checksum", () => {
  assert.deepEqual(validateRoutingNumber("021000021"), { ok: true, value: "021000021" });
  assert.deepEqual(validateRoutingNumber("0210-00021"), { ok: true, value: "021000021" });
  for (const input of ["021000022", "123456789", "000000000", "02100002", "abcdefghi"]) {
    assert.equal(errorCode(validateRoutingNumber(input)), "invalid_routing_number", input);
  }
});

Deno.test("validateCardNumber() accepts Luhn-valid 13 to 19 digit numbers and rejects a changed digit", () => {
  fc.assert(
    fc.property(fc.stringMatching(/^4\d{14}$/), fc.integer({ min: 1, max: 9 }), (partial, delta) => {
      const valid = partial + luhnCheckDigit(partial);
      assert.deepEqual(validateCardNumber(valid), { ok: true, value: valid });
      const changed = valid.slice(0, 15) + String((Number(valid[15]) + delta) % 10);
      assert.equal(errorCode(validateCardNumber(changed)), "invalid_card_number");
    }),
  );
  assert.deepEqual(validateCardNumber("4532 0151 1283 0366"), { ok: true, value: "4532015112830366" });
  for (const input of ["", "4111", "0000000000000000", "4532015112830366x"]) {
    assert.equal(errorCode(validateCardNumber(input)), "invalid_card_number", input);
  }
});

Deno.test("validateCurrency() knows ISO 4217 codes and their minor units", () => {
  assert.deepEqual(validateCurrency("USD"), { ok: true, value: USD });
  assert.deepEqual(validateCurrency("JPY"), { ok: true, value: JPY });
  for (const input of ["usd", "US", "XYZ", "", "USDD"]) {
    assert.equal(errorCode(validateCurrency(input)), "invalid_currency", input);
  }
});

Deno.test("parseProviderAmount() takes positive amounts with at most 2 decimals, whole for JPY", () => {
  assert.deepEqual(parseProviderAmount("125.50", USD), { ok: true, value: 12550n });
  assert.deepEqual(parseProviderAmount(0.01, USD), { ok: true, value: 1n });
  assert.deepEqual(parseProviderAmount("1000", JPY), { ok: true, value: 100000n });
  const rejected: Array<[string | number, typeof USD, string]> = [
    ["0", USD, "money_not_positive"],
    ["-5", USD, "money_negative"],
    ["1.005", USD, "money_precision"],
    ["abc", USD, "money_format"],
    ["", USD, "money_required"],
    ["100.50", JPY, "money_precision"],
  ];
  for (const [input, currency, code] of rejected) {
    assert.equal(errorCode(parseProviderAmount(input, currency)), code, `${input} ${currency.code}`);
  }
});

Deno.test("maskAccountNumber() shows the last four digits at most, half of a short number", () => {
  assert.equal(maskAccountNumber("123456789012"), "****9012");
  assert.equal(maskAccountNumber("12345"), "****45");
  assert.equal(maskAccountNumber("1"), "****");
});

Deno.test("isVisaCardNumber() tells Visa numbers from other issuers", () => {
  assert.equal(isVisaCardNumber(generateCardNumber("453201", () => "511283036")), true);
  assert.equal(isVisaCardNumber(generateCardNumber("990001", () => "511283036")), false);
  assert.equal(isVisaCardNumber("5555555555554444"), false);
});
