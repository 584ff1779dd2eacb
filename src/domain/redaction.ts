/**
 * Redaction of request and response payloads before they are written to the API request log:
 * values under secret-looking names (passwords, tokens, keys, credentials, card numbers) are
 * replaced, card numbers anywhere else are masked, and large payloads are cut to a preview.
 *
 * @module
 */

import {
  maskCardNumber,
  maskCardNumbersInText,
  MAX_CARD_NUMBER_LENGTH,
  mayHoldCardNumber,
  MIN_CARD_NUMBER_LENGTH,
} from "./card.ts";

export const REDACTED = "[REDACTED]";
/** The most of one payload the log keeps, in characters of its JSON text. */
export const MAX_LOGGED_PAYLOAD_CHARS = 4096;
/** Longer payloads are not parsed for redaction: only a preview of their text is kept. */
export const MAX_PARSED_PAYLOAD_CHARS = 256 * 1024;
/** Deeper nesting than this is not walked (a hostile body could nest thousands of levels). */
export const MAX_REDACTION_DEPTH = 32;
const TOO_DEEP = "[NESTED TOO DEEP]";

/** Names compared lower-cased with everything but letters and digits removed ("api_key" → "apikey"). */
const SENSITIVE_NAMES = new Set([
  "key",
  "pan",
  "pin",
  "cvv",
  "cvc",
  "cvv2",
  "otp",
  "sid",
  "cookie",
  "setcookie",
  "recipientcard",
  // A customer's bank account number (account verification); ledger account numbers go too, which
  // costs the log nothing it needs.
  "accountnumber",
  // Short spellings clients use for a password and a one-time code.
  "pwd",
  "otpcode",
]);
const SENSITIVE_NAME_PARTS = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "authorization",
  "apikey",
  "privatekey",
  "accesskey",
  "credential",
  "cardnumber",
  "sessionid",
  "passcode",
  // A card's PIN and its security code under their longer names ("pin" alone is matched whole:
  // as a part it would catch "shipping" and "mapping").
  "pincode",
  "cardpin",
  "securitycode",
  // A second factor's enrolment: its otpauth:// URI and QR code hold the TOTP secret.
  "otpauth",
  "recoverycode",
];

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Verdicts on names already seen: payloads repeat the same few field names on every request. */
const sensitiveVerdicts = new Map<string, boolean>();
/** Names come from request bodies too: past this many, verdicts are computed and not kept. */
export const MAX_REMEMBERED_NAMES = 2_048;

export function isSensitiveName(name: string): boolean {
  const known = sensitiveVerdicts.get(name);
  if (known !== undefined) return known;
  const normalized = normalizeName(name);
  const sensitive = SENSITIVE_NAMES.has(normalized) ||
    SENSITIVE_NAME_PARTS.some((part) => normalized.includes(part));
  if (sensitiveVerdicts.size < MAX_REMEMBERED_NAMES) sensitiveVerdicts.set(name, sensitive);
  return sensitive;
}

const CARD_LENGTH_INTEGER = new RegExp(`^-?\\d{${MIN_CARD_NUMBER_LENGTH},${MAX_CARD_NUMBER_LENGTH}}$`);

/** A copy of `value` with secrets replaced by "[REDACTED]" and card numbers masked. */
export function redactValue(value: unknown, depth = 0): unknown {
  return maskedCopy(value, depth, REDACTING);
}

/** How a copy masks: what a string becomes, and whether fields under a sensitive name are dropped. */
interface Masking {
  text: (text: string) => string;
  dropsSecrets: boolean;
}

const REDACTING: Masking = { text: maskCardNumbersInText, dropsSecrets: true };
const RECORD_MASKING: Masking = { text: maskCardNumbersOutsideIdentifiers, dropsSecrets: false };

function maskedCopy(value: unknown, depth: number, masking: Masking): unknown {
  if (typeof value === "string") return masking.text(value);
  if (typeof value === "number") return maskedNumber(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_REDACTION_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => maskedCopy(item, depth + 1, masking));
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    copy[name] = masking.dropsSecrets && isSensitiveName(name) && holdsSecret(item)
      ? REDACTED
      : maskedCopy(item, depth + 1, masking);
  }
  return copy;
}

/** A card number sent as a JSON number is still a card number: the number, or its masked text. */
function maskedNumber(value: number): number | string {
  const text = String(value);
  // Past 2^53 a parsed number has lost its last digits, so the Luhn check cannot tell a card
  // (a 16-digit one starting with 9, say) from any other number: one of card length is masked.
  if (!Number.isSafeInteger(value) && CARD_LENGTH_INTEGER.test(text)) return maskCardNumber(text);
  const masked = maskCardNumbersInText(text);
  return masked === text ? value : masked;
}

/**
 * Whether a value under a sensitive name can carry a secret. A flag cannot: one bit such as
 * `mustChangePassword: true` says nothing about the password, and the log keeps it.
 */
function holdsSecret(value: unknown): boolean {
  return value !== null && value !== undefined && typeof value !== "boolean";
}

/**
 * False when the JSON `text` certainly holds nothing to redact: no card-number-like digits (nor a
 * number with an exponent) and no name that isSensitiveName() would redact. Lets the log skip the
 * walk for the common lookup answer. Text with any backslash escape answers true: an escaped name
 * could hide a secret one.
 */
export function mayNeedRedaction(text: string): boolean {
  if (text.includes("\\") || hasNumberWithExponent(text) || mayHoldCardNumber(text)) return true;
  // Without escapes, every '"' outside a string opens one and the next closes it; a string
  // followed by ':' is a name.
  for (let open = text.indexOf('"'); open !== -1; open = text.indexOf('"', open + 1)) {
    const close = text.indexOf('"', open + 1);
    if (close === -1) return true;
    let next = close + 1;
    while (next < text.length && isJsonWhitespace(text.charCodeAt(next))) next++;
    if (
      text.charCodeAt(next) === COLON && isSensitiveName(text.slice(open + 1, close)) &&
      !literalFollows(text, next + 1)
    ) {
      return true;
    }
    open = close;
  }
  return false;
}

/**
 * A JSON number written with an exponent, as a value or as the whole text: 4.222222222222e12
 * parses to the card number 4222222222222, whose digits the text never shows in one run. Two
 * expressions: one with `^|` in front is slower on every clean answer.
 */
const NUMBER_WITH_EXPONENT = /[:[,]\s*-?\d+(?:\.\d*)?[eE]/;
const TOP_LEVEL_NUMBER_WITH_EXPONENT = /^\s*-?\d+(?:\.\d*)?[eE]/;
const hasNumberWithExponent = (text: string) =>
  NUMBER_WITH_EXPONENT.test(text) || TOP_LEVEL_NUMBER_WITH_EXPONENT.test(text);
const COLON = 58;
const JSON_LITERAL_AFTER_COLON = /\s*(?:true|false|null)\s*[,}\]]/y;

/** Whether the value starting at `from` (just past a name's colon) is true, false or null. */
function literalFollows(text: string, from: number): boolean {
  JSON_LITERAL_AFTER_COLON.lastIndex = from;
  return JSON_LITERAL_AFTER_COLON.test(text);
}
function isJsonWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/**
 * `"password": "…"` and `password=…` pairs in text that could not be parsed as a whole. A quoted
 * name's value is a string, a number, true or false, or a flat array (a PIN as digits, say).
 */
const QUOTED_PAIR =
  /("([^"\\]*)"\s*:\s*)(?:"(?:[^"\\]|\\.)*(?:"|$)|\[[^[\]{}]*(?:\]|$)|[-+\d.eE]+|true|false)/g;
const FORM_PAIR = /(^|[&?;\s])([A-Za-z0-9_.-]+)=([^&;\s]*)/g;

/**
 * Redacts free text (a payload too large to parse, or not JSON): masks card numbers and replaces
 * the values of secret-looking names in JSON-like and form-like pairs.
 */
export function redactText(text: string): string {
  const pairsRedacted = text
    .replace(
      QUOTED_PAIR,
      (pair, head: string, name: string) => isSensitiveName(name) ? `${head}"${REDACTED}"` : pair,
    )
    .replace(
      FORM_PAIR,
      (pair, lead: string, name: string) => isSensitiveName(name) ? `${lead}${name}=${REDACTED}` : pair,
    );
  return maskCardNumbersInText(pairsRedacted);
}

export interface TruncatedPayload {
  truncated: true;
  originalLength: number;
  preview: string;
}

/**
 * Cuts `text` to `maxChars` for a preview. Trailing digits are dropped: a card number cut in half
 * is too short to be recognised and masked, but its visible half must not be logged either.
 */
function previewOf(text: string, maxChars: number): string {
  // A scan back from the cut; an expression such as /[\d -]+$/ would be tried at every position of the preview.
  let end = Math.min(text.length, maxChars);
  while (end > 0 && isDigitSpaceOrDash(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

function isDigitSpaceOrDash(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 32 || code === 45;
}

/** The redacted value, and its JSON text when that fits in `maxChars`; else its preview. */
function redactedForLog(
  value: unknown,
  maxChars: number,
): { fits: true; redacted: unknown; json: string } | { fits: false; truncated: TruncatedPayload } {
  const redacted = redactValue(value);
  const json = JSON.stringify(redacted);
  if (json.length <= maxChars) return { fits: true, redacted, json };
  return {
    fits: false,
    truncated: { truncated: true, originalLength: json.length, preview: previewOf(json, maxChars) },
  };
}

/** The logged form of a parsed payload: redacted, and cut to a preview when its JSON is too long. */
export function loggedPayload(value: unknown, maxChars = MAX_LOGGED_PAYLOAD_CHARS): unknown {
  if (value === undefined) return null;
  const logged = redactedForLog(value, maxChars);
  return logged.fits ? logged.redacted : logged.truncated;
}

/** The parsed JSON of `text`, or undefined when it is not JSON or too long to parse. */
function parsedJson(text: string, maxParseChars: number): { value: unknown } | undefined {
  if (text.length > maxParseChars) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** A short JSON payload with nothing to redact is logged as it is. */
function isCleanJson(text: string, maxChars: number): boolean {
  return text.length <= maxChars && !mayNeedRedaction(text);
}

/** Text that is not JSON (or too long to parse): redacted as text, and cut to a preview. */
function loggedText(text: string, maxChars: number): unknown {
  if (text.length <= maxChars) return redactText(text);
  return {
    truncated: true,
    originalLength: text.length,
    preview: redactText(previewOf(text, maxChars)),
  } satisfies TruncatedPayload;
}

/**
 * The logged form of a payload's text: parsed as JSON when it is, otherwise (or when it is longer
 * than `maxParseChars`) redacted as text and cut to a preview.
 */
export function loggedPayloadFromText(
  text: string,
  maxChars = MAX_LOGGED_PAYLOAD_CHARS,
  maxParseChars = MAX_PARSED_PAYLOAD_CHARS,
): unknown {
  if (text === "") return null;
  const json = parsedJson(text, maxParseChars);
  if (json === undefined) return loggedText(text, maxChars);
  return isCleanJson(text, maxChars) ? json.value : loggedPayload(json.value, maxChars);
}

/**
 * JSON.stringify(redactValue(value)), cut off once it is longer than `limit` characters (`complete`
 * false; the text then holds at least the first `limit` characters). A preview needs only the
 * beginning of a long payload, and redacting and serialising all of a large page would cost more
 * than the rest of the logging.
 */
export function redactedJsonPrefix(value: unknown, limit: number): { json: string; complete: boolean } {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length <= limit;
  };
  const walk = (item: unknown, depth: number): boolean => {
    if (item === null || typeof item !== "object") return push(JSON.stringify(redactValue(item, depth)));
    if (depth >= MAX_REDACTION_DEPTH) return push(JSON.stringify(TOO_DEEP));
    if (Array.isArray(item)) {
      if (!push("[")) return false;
      for (let index = 0; index < item.length; index++) {
        if (index > 0 && !push(",")) return false;
        if (!walk(item[index], depth + 1)) return false;
      }
      return push("]");
    }
    if (!push("{")) return false;
    let first = true;
    for (const [name, child] of Object.entries(item)) {
      if (!push(`${first ? "" : ","}${JSON.stringify(name)}:`)) return false;
      first = false;
      const written = isSensitiveName(name) && holdsSecret(child)
        ? push(JSON.stringify(REDACTED))
        : walk(child, depth + 1);
      if (!written) return false;
    }
    return push("}");
  };
  const complete = walk(value, 0);
  return { json: parts.join(""), complete };
}

/**
 * loggedPayloadFromText() as the JSON text to store. A short payload with nothing to redact is
 * stored exactly as sent (once it has parsed as JSON), sparing a walk and a serialisation; a long
 * one is redacted only as far as its preview reaches, and `originalLength` is its length as sent.
 */
export function loggedPayloadJson(text: string, maxChars = MAX_LOGGED_PAYLOAD_CHARS): string | null {
  if (text === "") return null;
  const json = parsedJson(text, MAX_PARSED_PAYLOAD_CHARS);
  if (json === undefined) return JSON.stringify(loggedText(text, maxChars));
  if (isCleanJson(text, maxChars)) return text;
  const redacted = redactedJsonPrefix(json.value, maxChars);
  if (redacted.complete) return redacted.json;
  return JSON.stringify(
    {
      truncated: true,
      originalLength: text.length,
      preview: previewOf(redacted.json, maxChars),
    } satisfies TruncatedPayload,
  );
}

/**
 * Identifiers the server generates: UUIDs and hex digests (32 or more hex characters). Their digit
 * runs pass the Luhn check now and then (a SHA-256 holds 13 digits in a row in about one case in
 * ten), and masking them would break the hash chain's and the reports' checks.
 */
const GENERATED_IDENTIFIER =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,}/gi;
const HEX_LETTER = /[a-f]/i;

/**
 * Masks card numbers in stored text (audit rows, report cells) like maskCardNumbersInText(),
 * leaving generated identifiers as they are; a run of 32 or more digits with no hex letter is not
 * taken for one.
 */
export function maskCardNumbersOutsideIdentifiers(text: string): string {
  if (!mayHoldCardNumber(text)) return text;
  let masked = "";
  let from = 0;
  for (const match of text.matchAll(GENERATED_IDENTIFIER)) {
    if (!HEX_LETTER.test(match[0])) continue;
    masked += maskCardNumbersInText(text.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return masked + maskCardNumbersInText(text.slice(from));
}

/**
 * A copy of a record (an audit row's changes) with card numbers masked in every string and number,
 * generated identifiers left as they are. Unlike redactValue() nothing is dropped by its name: the
 * record's callers mask their secrets themselves.
 */
export function maskCardNumbersInRecord(value: unknown, depth = 0): unknown {
  return maskedCopy(value, depth, RECORD_MASKING);
}
