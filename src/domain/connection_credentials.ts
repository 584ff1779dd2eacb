/**
 * Partner connection credentials: the default configuration of spec section 5 and the masking
 * applied whenever credentials leave the server. Pure module: no I/O.
 *
 * Masking works by key name: a value whose key looks like a secret (key, secret, password, token,
 * credential, certificate, …) is replaced, and everything nested under such a key is masked too.
 * Other values (type, identifiers, URLs, timestamps) are shown as stored.
 *
 * @module
 */

export const MASK = "••••";
/** Secrets at least this long keep their last characters visible, as a hint to tell them apart. */
export const MIN_LENGTH_FOR_VISIBLE_TAIL = 12;
export const VISIBLE_TAIL_LENGTH = 2;

const SECRET_KEY =
  /(secret|password|passwd|passphrase|pwd|token|key|credential|cert|private|signature|bearer|authorization|cookie|session|salt|otp|pin$)/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function maskSecretValue(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "string") {
    if (value === "") return value;
    return value.length >= MIN_LENGTH_FOR_VISIBLE_TAIL ? `${MASK}${value.slice(-VISIBLE_TAIL_LENGTH)}` : MASK;
  }
  if (Array.isArray(value)) return value.map(maskSecretValue);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskSecretValue(inner)]));
  }
  return MASK;
}

/** A copy of `config` with every secret value masked; safe for responses and audit rows. */
export function maskCredentials(config: unknown): unknown {
  if (Array.isArray(config)) return config.map(maskCredentials);
  if (config === null || typeof config !== "object") return config;
  return Object.fromEntries(
    Object.entries(config).map((
      [key, value],
    ) => [key, isSecretKey(key) ? maskSecretValue(value) : maskCredentials(value)]),
  );
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
