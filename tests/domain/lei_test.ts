import assert from "node:assert/strict";
import fc from "fast-check";
import {
  LEI_CHECK_DIGIT_FORM_MESSAGE,
  LEI_CHECK_DIGITS_MESSAGE,
  LEI_LENGTH_MESSAGE,
  leiCheckDigits,
  normaliseLei,
  validateLei,
} from "../../src/domain/lei.ts";

/** LEIs as published by GLEIF for well-known banks. */
const PUBLISHED = {
  "Deutsche Bank AG": "7LTWFZYICNSX8D621K86",
  "BNP Paribas": "R0MUWSFPU8MPRO8K5P83",
  "JPMorgan Chase Bank, N.A.": "7H6GLXDRUGQFU57RNE97",
  "Barclays Bank PLC": "G5GSEF7VJP5I7OUK5573",
  "HSBC Holdings PLC": "MLU0ZO3ML4LN2LL2TL39",
};

const DIGITS = "0123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const isDigit = (character: string) => DIGITS.includes(character);

const validLei = fc.string({ unit: fc.constantFrom(...DIGITS + LETTERS), minLength: 18, maxLength: 18 })
  .map((base) => base + leiCheckDigits(base));

/** Every LEI one character away from `lei` by a character of the same class (digit for digit, letter for letter). */
function sameClassSubstitutions(lei: string): string[] {
  return [...lei].flatMap((character, position) =>
    [...(isDigit(character) ? DIGITS : LETTERS)].filter((other) => other !== character)
      .map((other) => lei.slice(0, position) + other + lei.slice(position + 1))
  );
}

/** Every adjacent swap of two different characters, with whether both are of one class. */
function adjacentSwaps(lei: string): { swapped: string; sameClass: boolean }[] {
  return [...lei].slice(0, -1).flatMap((character, position) => {
    const next = lei[position + 1];
    if (character === next) return [];
    const swapped = lei.slice(0, position) + next + character + lei.slice(position + 2);
    return [{ swapped, sameClass: isDigit(character) === isDigit(next) }];
  });
}

Deno.test("published LEIs of well-known banks are valid", () => {
  for (const [bank, lei] of Object.entries(PUBLISHED)) {
    assert.deepEqual(validateLei(lei), { ok: true, value: lei }, bank);
  }
});

Deno.test("a LEI is normalised: spaces dropped, letters upper-cased", () => {
  assert.equal(normaliseLei(" 7ltw fzyi cnsx 8d62 1k86 "), "7LTWFZYICNSX8D621K86");
  assert.deepEqual(validateLei("r0muwsfpu8mpro8k5p83"), { ok: true, value: "R0MUWSFPU8MPRO8K5P83" });
});

Deno.test("a LEI of the wrong length, with other characters or letters as check digits is refused with its reason", () => {
  assert.equal(validateLei("7LTWFZYICNSX8D621K8").ok, false);
  const short = validateLei("7LTWFZYICNSX8D621K8");
  assert.equal(!short.ok && short.error.message, LEI_LENGTH_MESSAGE);
  const dashed = validateLei("7LTWFZYICNSX8D621K-6");
  assert.match(!dashed.ok ? dashed.error.message : "", /"-" \(U\+002D\) at position 19/);
  // MOD 97-10 alone would accept this one: a letter counts as two digits.
  const letterCheck = validateLei("R0MUWSFPU8MPRO8K5P8L");
  assert.equal(!letterCheck.ok && letterCheck.error.message, LEI_CHECK_DIGIT_FORM_MESSAGE);
  const wrong = validateLei("7LTWFZYICNSX8D621K87");
  assert.deepEqual(wrong, { ok: false, error: { code: "lei_check_digits", message: LEI_CHECK_DIGITS_MESSAGE, field: "lei" } });
});

Deno.test("every adjacent swap of the published LEIs is detected, and every single-character change of a class", () => {
  for (const lei of Object.values(PUBLISHED)) {
    for (const { swapped } of adjacentSwaps(lei)) assert.equal(validateLei(swapped).ok, false, `${lei} → ${swapped}`);
    for (const changed of sameClassSubstitutions(lei)) assert.equal(validateLei(changed).ok, false, `${lei} → ${changed}`);
  }
});

Deno.test("for any valid LEI, every digit-for-digit and letter-for-letter substitution is detected", () => {
  fc.assert(fc.property(validLei, (lei) => {
    assert.equal(validateLei(lei).ok, true);
    for (const changed of sameClassSubstitutions(lei)) assert.equal(validateLei(changed).ok, false, changed);
  }));
});

Deno.test("for any valid LEI, every adjacent swap of two digits or two letters is detected", () => {
  fc.assert(fc.property(validLei, (lei) => {
    for (const { swapped } of adjacentSwaps(lei).filter((swap) => swap.sameClass)) {
      assert.equal(validateLei(swapped).ok, false, swapped);
    }
  }));
});

Deno.test("the limit of MOD 97-10 over letters: a letter for a digit can go unnoticed", () => {
  // A letter is two digits in the check: "I" (18) for "3" lengthens the number and can land on the same remainder.
  assert.equal(validateLei("7LTWFZY3CNSX8D621K86").ok, true);
  assert.equal(validateLei("7LTWFZYICNSX8D621K86").ok, true);
});
