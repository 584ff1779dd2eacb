/**
 * The console's Ed25519 directory key (docs/directory.md): the private half is a PKCS #8 PEM file
 * in DATA_DIR, created once at headquarters or on a standalone node with owner-only permissions; the
 * public half is stored in the database so that every node serves it. WebCrypto makes and uses the
 * key and jose writes the JWS: no cryptography is written here.
 */
import { calculateJwkThumbprint, CompactSign, type JWK } from "jose";
import { directorySigningKeys } from "../../../../db/schema.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { createPrivateDir, PRIVATE_FILE_MODE } from "../../file_modes.ts";
import { desc, eq } from "drizzle-orm";

export const DIRECTORY_KEY_FILE_NAME = "directory-signing-key.pem";
const ED25519 = { name: "Ed25519" } as const;

export interface DirectorySigningKey {
  keyId: string;
  privateKey: CryptoKey;
  publicKeyPem: string;
  publicKeyJwk: JWK;
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = btoa(String.fromCharCode(...new Uint8Array(der)));
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

function derOf(text: string, label: string): Uint8Array<ArrayBuffer> {
  const body = text.replace(`-----BEGIN ${label}-----`, "").replace(`-----END ${label}-----`, "").replace(
    /\s+/g,
    "",
  );
  return Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
}

/** The whole key from its private half: the public JWK is the private JWK without `d`. */
async function keyFromPkcs8(der: Uint8Array<ArrayBuffer>): Promise<DirectorySigningKey> {
  const privateKey = await crypto.subtle.importKey("pkcs8", der, ED25519, true, ["sign"]);
  const { kty, crv, x } = await crypto.subtle.exportKey("jwk", privateKey);
  const publicJwk: JWK = { kty, crv, x };
  const keyId = await calculateJwkThumbprint(publicJwk);
  const publicKey = await crypto.subtle.importKey("jwk", publicJwk, ED25519, true, ["verify"]);
  const spki = await crypto.subtle.exportKey("spki", publicKey);
  return {
    keyId,
    privateKey,
    publicKeyPem: pem("PUBLIC KEY", spki),
    publicKeyJwk: { ...publicJwk, kid: keyId, alg: "EdDSA", use: "sig" },
  };
}

const loaded = new Map<string, Promise<DirectorySigningKey>>();

async function readKeyFile(path: string): Promise<DirectorySigningKey | null> {
  try {
    return await keyFromPkcs8(derOf(await Deno.readTextFile(path), "PRIVATE KEY"));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Reads the key file, creating it (0600, never overwritten: a racing process's key wins) when absent. */
async function loadOrCreate(dataDir: string): Promise<DirectorySigningKey> {
  const path = `${dataDir.replace(/\/$/, "")}/${DIRECTORY_KEY_FILE_NAME}`;
  const existing = await readKeyFile(path);
  if (existing) return existing;
  await createPrivateDir(dataDir);
  const pair = await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"]) as CryptoKeyPair;
  const text = pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  try {
    await Deno.writeTextFile(path, text, { createNew: true, mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const key = await readKeyFile(path);
  if (!key) throw new Error(`${path} vanished after it was written`);
  return key;
}

/** The node's directory key, read once per data folder. */
export function directorySigningKey(dataDir: string): Promise<DirectorySigningKey> {
  let key = loaded.get(dataDir);
  if (!key) {
    key = loadOrCreate(dataDir);
    key.catch(() => loaded.delete(dataDir));
    loaded.set(dataDir, key);
  }
  return key;
}

/**
 * At headquarters or standalone start: the key exists and its public half is in the database. A new
 * key file (the data folder was replaced) adds a key; editions keep naming the key that signed them.
 */
export async function ensureDirectoryKey(
  db: Database,
  dataDir: string,
  nowIso: string,
): Promise<DirectorySigningKey> {
  const key = await directorySigningKey(dataDir);
  await db.transaction((tx) => registerDirectoryKey(tx, key, nowIso));
  return key;
}

/** Stores the key's public half unless it is there already (a publication does this in its own transaction too). */
export async function registerDirectoryKey(tx: Tx, key: DirectorySigningKey, nowIso: string): Promise<void> {
  await tx.insert(directorySigningKeys).values({
    keyId: key.keyId,
    publicKeyPem: key.publicKeyPem,
    publicKeyJwk: key.publicKeyJwk,
    createdAt: nowIso,
  }).onConflictDoNothing();
}

export interface PublicDirectoryKey {
  keyId: string;
  publicKeyPem: string;
  publicKeyJwk: JWK;
  createdAt: string;
}

/** The key a given edition names, or the newest key (what the next edition will be signed with). */
export async function publicDirectoryKey(
  db: Queryable,
  keyId?: string,
): Promise<PublicDirectoryKey | undefined> {
  const query = db.select().from(directorySigningKeys);
  const row = keyId === undefined
    ? await query.orderBy(desc(directorySigningKeys.createdAt)).limit(1).get()
    : await query.where(eq(directorySigningKeys.keyId, keyId)).get();
  return row as PublicDirectoryKey | undefined;
}

/** The raw 64-byte Ed25519 signature of `bytes` (what `openssl pkeyutl -verify -rawin` checks). */
export async function signRaw(key: DirectorySigningKey, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign(ED25519, key.privateKey, bytes));
}

/** A JWS with detached content (RFC 7515 appendix F): "header..signature", alg EdDSA, kid the key's thumbprint. */
export async function signDetachedJws(key: DirectorySigningKey, bytes: Uint8Array): Promise<string> {
  const compact = await new CompactSign(bytes).setProtectedHeader({ alg: "EdDSA", kid: key.keyId })
    .sign(key.privateKey);
  const [header, , signature] = compact.split(".");
  return `${header}..${signature}`;
}
