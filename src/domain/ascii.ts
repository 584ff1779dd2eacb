/**
 * Identifier input (IBANs, BICs, routing prefixes, country codes) is ASCII. String.prototype
 * toUpperCase() maps some other letters onto ASCII ones ("ſ" long s → "S", dotless "ı" → "I", the
 * ligature "ﬁ" → "FI"), which would turn a look-alike into a different, valid identifier; these
 * helpers touch a–z only and name anything else exactly. Pure module: no I/O.
 */

export const CODE_0 = 48;
export const CODE_9 = 57;
export const CODE_UPPER_A = 65;
export const CODE_UPPER_Z = 90;
const CODE_LOWER_A = 97;
const CODE_LOWER_Z = 122;
const LOWER_ASCII_LETTERS = /[a-z]+/g;

export function isAsciiDigitCode(code: number): boolean {
  return code >= CODE_0 && code <= CODE_9;
}

export function isAsciiUpperCode(code: number): boolean {
  return code >= CODE_UPPER_A && code <= CODE_UPPER_Z;
}

/** Upper-cases a–z and leaves every other character as it is. */
export function asciiUpperCase(text: string): string {
  return text.replace(LOWER_ASCII_LETTERS, (letters) => letters.toUpperCase());
}

export interface InvalidCharacter {
  /** The whole character (a surrogate pair stays one character). */
  character: string;
  /** 1-based, counted in characters (code points). */
  position: number;
}

/** The first character that is not an ASCII letter (either case) or digit, or null. */
export function firstNonAlphanumeric(text: string): InvalidCharacter | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (
      isAsciiDigitCode(code) || isAsciiUpperCode(code) || (code >= CODE_LOWER_A && code <= CODE_LOWER_Z)
    ) continue;
    // Everything before index i is ASCII, one code unit per character.
    return { character: String.fromCodePoint(text.codePointAt(i)!), position: i + 1 };
  }
  return null;
}

/** `"/" (U+002F)`: the character and its code point, which shows invisible ones (soft hyphen, joiners). */
export function describeCharacter(character: string): string {
  const hex = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `"${character}" (U+${hex})`;
}
