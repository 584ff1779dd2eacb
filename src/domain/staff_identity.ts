/**
 * One person, one identity: a staff e-mail address is trimmed, lower-cased and refused when it holds
 * a character that hides or disguises what it says (control, invisible formatting, bidi, space), or
 * anything but ASCII before the @; a name refuses control and bidi characters. A refusal names the
 * character and its position, so that the person can find it. Whether an address looks like another
 * account's is decided by its confusable skeleton (confusables.ts). Pure module: no I/O.
 */
import { err, ok, type Result } from "./result.ts";

export const MAX_EMAIL_LENGTH = 255;
/** RFC 5321, 4.5.3.1.1. */
export const MAX_EMAIL_LOCAL_PART_LENGTH = 64;
/** RFC 1035, 2.3.4. */
const MAX_DOMAIN_LABEL_LENGTH = 63;
export const MAX_PERSON_NAME_LENGTH = 255;

/** The RFC 5322 dot-atom: what an address needs before the @, quoted forms left out. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u;
/** Hidden or disguising anywhere in an address. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/u;
/** Refused in names: controls, line breaks, bidi controls and invisible formatting save the joiners. */
const NAME_HIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]|(?![\u200C\u200D])\p{Cf}/u;

/** Names of the characters these checks usually meet; others are described by their kind. */
const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0x00: "null",
  0x09: "character tabulation",
  0x0a: "line feed",
  0x0d: "carriage return",
  0x1b: "escape",
  0x20: "space",
  0x7f: "delete",
  0x85: "next line",
  0xa0: "no-break space",
  0xad: "soft hyphen",
  0x034f: "combining grapheme joiner",
  0x061c: "arabic letter mark",
  0x180e: "mongolian vowel separator",
  0x200b: "zero width space",
  0x200c: "zero width non-joiner",
  0x200d: "zero width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x2028: "line separator",
  0x2029: "paragraph separator",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2060: "word joiner",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
  0x3000: "ideographic space",
  0x3164: "hangul filler",
  0xfeff: "zero width no-break space",
};

/** Finds a character's Unicode name where the caller knows more names (the confusables table). */
export type CharacterNames = (codePoint: number) => string | undefined;

function kindOf(character: string): string {
  if (/\p{Cc}/u.test(character)) return "control character";
  if (/\p{Bidi_Control}/u.test(character)) return "bidirectional control";
  if (/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(character)) return "invisible character";
  if (/\p{Z}/u.test(character)) return "space";
  return "non-ASCII character";
}

/** `character U+200B (zero width space) at position 4`: the position counts characters from 1. */
export function describeAt(character: string, position: number, names?: CharacterNames): string {
  const code = character.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase().padStart(4, "0");
  const name = CHARACTER_NAMES[code] ?? names?.(code) ?? kindOf(character);
  return `character U+${hex} (${name}) at position ${position}`;
}

/** The first refused character of the address, checked before its shape so the message can name it. */
function refusedCharacter(address: string, names?: CharacterNames): string | null {
  let position = 0;
  let beforeAt = true;
  for (const character of address) {
    position++;
    if (HIDDEN.test(character)) return `${describeAt(character, position, names)} is not allowed`;
    if (beforeAt && character.codePointAt(0)! > 0x7e) {
      return `${
        describeAt(character, position, names)
      } is not allowed: the part before the @ must be plain ASCII`;
    }
    if (character === "@") beforeAt = false;
  }
  return null;
}

function shapeProblem(local: string, domain: string): string | null {
  if (local.length === 0) return "The part before the @ is missing";
  if (local.length > MAX_EMAIL_LOCAL_PART_LENGTH) {
    return `The part before the @ may have at most ${MAX_EMAIL_LOCAL_PART_LENGTH} characters`;
  }
  if (!LOCAL_PART.test(local)) {
    return "The part before the @ may hold letters, digits, dots (not first, last or doubled) and !#$%&'*+/=?^_`{|}~-";
  }
  const labels = domain.split(".");
  if (labels.length < 2) return "The domain after the @ needs a dot, as in bank.example";
  const bad = labels.find((label) => label.length > MAX_DOMAIN_LABEL_LENGTH || !DOMAIN_LABEL.test(label));
  if (bad !== undefined) {
    return `The domain part "${bad}" must be letters, digits and inner hyphens, at most ${MAX_DOMAIN_LABEL_LENGTH} characters`;
  }
  return null;
}

/**
 * The address as stored and compared: trimmed, the domain in NFC, lower-cased. Refused: hidden
 * characters anywhere, anything but ASCII before the @, and a shape other than local@domain.tld.
 */
export function staffEmail(raw: string, names?: CharacterNames): Result<string> {
  const trimmed = raw.trim();
  if (trimmed === "") return err("invalid_email", "Required", "email");
  const refused = refusedCharacter(trimmed, names);
  if (refused) return err("invalid_email", refused, "email");
  const at = trimmed.indexOf("@");
  if (at < 0 || trimmed.indexOf("@", at + 1) >= 0) {
    return err("invalid_email", "An e-mail address has exactly one @, as in jane.doe@bank.example", "email");
  }
  const local = trimmed.slice(0, at).toLowerCase();
  const domain = trimmed.slice(at + 1).normalize("NFC").toLowerCase();
  const problem = shapeProblem(local, domain);
  if (problem) return err("invalid_email", problem, "email");
  const email = `${local}@${domain}`;
  if (email.length > MAX_EMAIL_LENGTH) {
    return err("invalid_email", `At most ${MAX_EMAIL_LENGTH} characters`, "email");
  }
  return ok(email);
}

/** A first or last name: trimmed, blank is none; controls, line breaks and bidi controls are refused. */
export function personName(raw: string | null | undefined, field: string): Result<string | null> {
  const trimmed = (raw ?? "").trim();
  if (trimmed === "") return ok(null);
  let position = 0;
  for (const character of trimmed) {
    position++;
    if (NAME_HIDDEN.test(character)) {
      return err("invalid_name", `${describeAt(character, position)} is not allowed`, field);
    }
  }
  if (trimmed.length > MAX_PERSON_NAME_LENGTH) {
    return err("invalid_name", `At most ${MAX_PERSON_NAME_LENGTH} characters`, field);
  }
  return ok(trimmed);
}
