/**
 * Secrets at rest (card numbers, partner credentials): AES-256-GCM through jose's JWE ("dir" key
 * management), so no cryptography is written here. The 32-byte key comes from SECRETS_KEY (base64)
 * or from a key file created once under DATA_DIR with owner-only permissions; loadKey() serves the
 * audit chain's key (audit/chain_key.ts) the same way.
 */
import { compactDecrypt, CompactEncrypt } from "jose";
import { createHmac } from "node:crypto";
import { createPrivateDir } from "./file_modes.ts";

export const KEY_FILE_NAME = "secrets.key";
/** The audit chain's key file (audit/chain_key.ts), kept here so that tools can name it without the database driver. */
export const AUDIT_CHAIN_KEY_FILE_NAME = "audit-chain.key";
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
  return await loadKey(dataDir, { fileName: KEY_FILE_NAME, setting: "SECRETS_KEY", configured });
}

export interface KeySource {
  /** The key file's name under the data folder. */
  fileName: string;
  /** The environment variable that may hold the key instead, for messages. */
  setting: string;
  /** That variable's value, base64 of 32 bytes, or null. */
  configured: string | null;
  /** False: a missing key file is an error instead of being created (verification tools). */
  create?: boolean;
}

/**
 * A 32-byte key: from its setting, else from its key file under `dataDir`, which is created once
 * (mode 0600, never overwritten: when two processes race, the first one's key is used).
 */
export async function loadKey(dataDir: string, source: KeySource): Promise<Uint8Array> {
  if (source.configured) {
    const key = decodeBase64(source.configured);
    if (key.byteLength !== KEY_BYTES) throw new Error(`${source.setting} must be 32 bytes, base64-encoded`);
    return key;
  }
  const path = `${dataDir.replace(/\/$/, "")}/${source.fileName}`;
  try {
    const key = decodeBase64(await Deno.readTextFile(path));
    if (key.byteLength !== KEY_BYTES) throw new Error(`${path} does not hold a 32-byte key`);
    return key;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    if (source.create === false) throw new Error(`No key: set ${source.setting} or provide ${path}`);
  }
  await createPrivateDir(dataDir);
  const key = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  try {
    await Deno.writeTextFile(path, encodeBase64(key), { createNew: true, mode: 0o600 });
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if (error instanceof Deno.errors.AlreadyExists) return loadKey(dataDir, { ...source, create: false });
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
