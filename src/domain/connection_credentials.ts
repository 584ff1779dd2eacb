/**
 * Partner connection credentials: the default configuration of spec section 5 and the masking
 * applied whenever credentials leave the server. Pure module: no I/O.
 *
 * Masking is deny-by-default: every value is masked unless the name it sits under is one of the
 * few NON_SECRET_CREDENTIAL_FIELDS (types, identifiers of keys and clients, algorithm names,
 * endpoint URLs and paths, timestamps). Objects and arrays are walked, so their structure and
 * their listed fields stay visible; card numbers are masked even in listed fields.
 *
 * @module
 */

import { maskCardNumbersInText } from "./card.ts";

export const MASK = "••••";
/** Secrets at least this long keep their last characters visible, as a hint to tell them apart. */
export const MIN_LENGTH_FOR_VISIBLE_TAIL = 12;
export const VISIBLE_TAIL_LENGTH = 2;

/**
 * The fields shown as stored, compared lower-cased without separators ("key_id" = "keyId"). Every
 * other field is masked, whatever its name: a secret under an unforeseen name ("hmac", "auth",
 * "note") stays hidden.
 */
export const NON_SECRET_CREDENTIAL_FIELDS: readonly string[] = [
  // What kind of connection and authentication this is (the browser's default credentials).
  "authenticationType",
  "connectionType",
  "messageStandard",
  "institutionType",
  "complianceFramework",
  "operationalStatus",
  // Identifiers of the parties, the client and the key, never the key itself.
  "institutionIdentifier",
  "associationIdentifier",
  "memberNumber",
  "clientId",
  "keyId",
  "kid",
  "certificateSerialNumber",
  // Algorithm names.
  "algorithm",
  "alg",
  "signatureAlgorithm",
  // Endpoint URLs and paths, documentation links, OAuth scopes.
  "endpoint",
  "endpointPath",
  "tokenUrl",
  "tokenEndpoint",
  "documentationUrl",
  "scope",
  "scopes",
  // When the credentials were set.
  "connectionTimestamp",
];

const normalizeFieldName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
const NON_SECRET = new Set(NON_SECRET_CREDENTIAL_FIELDS.map(normalizeFieldName));

export function isNonSecretCredentialField(name: string): boolean {
  return NON_SECRET.has(normalizeFieldName(name));
}

/** One secret value: long strings keep their last 2 characters as a hint, empty strings stay empty. */
function maskLeaf(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "string") {
    // Empty, or masked already (re-masking a stored masked copy changes nothing).
    if (value === "" || (value.startsWith(MASK) && value.length <= MASK.length + VISIBLE_TAIL_LENGTH)) return value;
    return value.length >= MIN_LENGTH_FOR_VISIBLE_TAIL ? `${MASK}${value.slice(-VISIBLE_TAIL_LENGTH)}` : MASK;
  }
  return MASK;
}

/** A value under a listed field: shown, with any card number in it masked. */
function showLeaf(value: unknown): unknown {
  if (typeof value === "string") return maskCardNumbersInText(value);
  if (typeof value === "number") {
    const text = String(value);
    const masked = maskCardNumbersInText(text);
    return masked === text ? value : masked;
  }
  return value;
}

function maskUnder(value: unknown, shown: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => maskUnder(item, shown));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, maskUnder(inner, isNonSecretCredentialField(key))]),
    );
  }
  return shown ? showLeaf(value) : maskLeaf(value);
}

/**
 * A copy of `config` that is safe for responses, audit rows and reports: every value masked except
 * those directly under a field of NON_SECRET_CREDENTIAL_FIELDS (array items count as directly under
 * the array's field). A top-level value that is not an object is masked whole.
 */
export function maskCredentials(config: unknown): unknown {
  return maskUnder(config, false);
}

/** Spec 5: the credentials sent when the form's credentials field is left blank. */
export function defaultCredentialsConfig(connection: {
  connectionType: string;
  messageStandard: string;
  authenticationMethod: string;
}): Record<string, string> {
  return {
    authenticationType: connection.authenticationMethod,
    connectionType: connection.connectionType,
    messageStandard: connection.messageStandard,
  };
}
