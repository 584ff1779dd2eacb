/**
 * Secrets at rest (card numbers, partner credentials): AES-256-GCM through jose's JWE ("dir" key
 * management), so no cryptography is written here. The 32-byte key comes from SECRETS_KEY (base64)
 * or from a key file created once under DATA_DIR with owner-only permissions.
 */
import { compactDecrypt, CompactEncrypt } from "jose";
import { createHmac } from "node:crypto";

export const KEY_FILE_NAME = "secrets.key";
const KEY_BYTES = 32;

export interface Secrets {
  encrypt(plaintext: string): Promise<string>;
  decrypt(ciphertext: string): Promise<string>;
  /** Keyed fingerprint (HMAC-SHA-256) for uniqueness checks without decrypting. */
  fingerprint(value: string): string;
}

function decodeBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text.trim()), (char) => char.charCodeAt(0));
}

export function encodeBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

export async function loadSecretsKey(dataDir: string, configured: string | null): Promise<Uint8Array> {
  if (configured) {
    const key = decodeBase64(configured);
    if (key.byteLength !== KEY_BYTES) throw new Error("SECRETS_KEY must be 32 bytes, base64-encoded");
    return key;
  }
  const path = `${dataDir.replace(/\/$/, "")}/${KEY_FILE_NAME}`;
  try {
    const key = decodeBase64(await Deno.readTextFile(path));
    if (key.byteLength !== KEY_BYTES) throw new Error(`${path} does not hold a 32-byte key`);
    return key;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const key = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  try {
    await Deno.writeTextFile(path, encodeBase64(key), { createNew: true, mode: 0o600 });
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if (error instanceof Deno.errors.AlreadyExists) return loadSecretsKey(dataDir, null);
    throw error;
  }
}

export function createSecrets(key: Uint8Array): Secrets {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    encrypt: (plaintext) =>
      new CompactEncrypt(encoder.encode(plaintext)).setProtectedHeader({ alg: "dir", enc: "A256GCM" })
        .encrypt(key),
    decrypt: async (ciphertext) => decoder.decode((await compactDecrypt(ciphertext, key)).plaintext),
    fingerprint: (value) => createHmac("sha256", key).update(value).digest("hex"),
  };
}
