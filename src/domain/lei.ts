/**
 * Legal Entity Identifiers (ISO 17442): 20 characters of 0-9 and A-Z, the last two ISO 7064
 * MOD 97-10 check digits over the whole (letters as 10..35, the number mod 97 is 1), the same
 * arithmetic as the IBAN's. Letters count as two digits, so the check catches every substitution of a
 * digit for a digit or a letter for a letter and every swap of two digits or two letters, but not
 * every change between a letter and a digit (tests/domain/lei_test.ts shows one). Pure module: no I/O.
 *
 * @module
 */
import { asciiUpperCase, describeCharacter } from "./ascii.ts";
import { mod97Range } from "./iban.ts";
import { err, ok, type Result } from "./result.ts";

export const LEI_LENGTH = 20;
/** What a form or request may carry: a LEI pasted with spaces between its groups. */
export const MAX_LEI_INPUT_LENGTH = 40;
/** The first 18 characters; the check digits follow. */
export const LEI_BASE_LENGTH = 18;

export const LEI_LENGTH_MESSAGE = `A LEI has exactly ${LEI_LENGTH} characters`;
export const LEI_CHECK_DIGIT_FORM_MESSAGE = "A LEI ends in two check digits (0-9)";
export const LEI_CHECK_DIGITS_MESSAGE = "The LEI's check digits do not match (ISO 7064 MOD 97-10)";
export const LEI_TAKEN = "Another institution already has this LEI";

const LEI_CHARACTERS = /^[0-9A-Z]*$/;
const LEI_CHECK_DIGITS = /[0-9]{2}$/;

/** People paste LEIs with spaces or in lower case; stored and compared without either. */
export function normaliseLei(input: string): string {
  return asciiUpperCase(input.replace(/\s+/g, ""));
}

function characterMessage(lei: string): string {
  const position = [...lei].findIndex((character) => !/[0-9A-Z]/.test(character));
  const character = [...lei][position];
  return `A LEI has only the digits 0-9 and the letters A-Z; ${describeCharacter(character)} at position ${
    position + 1
  } is neither`;
}

/** The normalised LEI when its length, characters and check digits hold; else why not. */
export function validateLei(input: string): Result<string> {
  const lei = normaliseLei(input);
  if (!LEI_CHARACTERS.test(lei)) return err("lei_characters", characterMessage(lei), "lei");
  if (lei.length !== LEI_LENGTH) return err("lei_length", LEI_LENGTH_MESSAGE, "lei");
  if (!LEI_CHECK_DIGITS.test(lei)) return err("lei_check_digit_form", LEI_CHECK_DIGIT_FORM_MESSAGE, "lei");
  if (mod97Range(0, lei, 0, LEI_LENGTH) !== 1) return err("lei_check_digits", LEI_CHECK_DIGITS_MESSAGE, "lei");
  return ok(lei);
}

/** The two check digits that make an 18-character base a valid LEI. */
export function leiCheckDigits(base: string): string {
  return String(98 - mod97Range(0, `${base}00`, 0, LEI_BASE_LENGTH + 2)).padStart(2, "0");
}
