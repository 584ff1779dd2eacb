/**
 * argon2id password hashing through hash-wasm (a maintained WebAssembly build of the reference code),
 * and the password policy: at least 12 characters, and not one of the common or breached passwords
 * that zxcvbn-ts ships (@zxcvbn-ts/language-common, about 50,000 entries drawn from leaked lists).
 */
import { argon2id, argon2Verify } from "hash-wasm";
import type { PasswordHashCost } from "../config.ts";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

type GcOptions = { type: "major"; execution: "async" };

/**
 * Every argon2id run allocates its own WebAssembly memory (19 MiB at the default cost), which is
 * freed only when V8 next collects the old generation. Under load that comes after the heap has
 * grown, and the two added up to the server's peak memory (docs/bench.md). With `--expose-gc`
 * (SERVER_V8_FLAGS) a full collection is queued as a task after each run; elsewhere (the CLI
 * scripts) this does nothing.
 */
function releaseHashMemory(): void {
  (globalThis as { gc?: (options: GcOptions) => void }).gc?.({ type: "major", execution: "async" });
}

export async function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  try {
    return await argon2id({
      password,
      salt: crypto.getRandomValues(new Uint8Array(SALT_BYTES)),
      parallelism: cost.parallelism,
      iterations: cost.iterations,
      memorySize: cost.memoryKiB,
      hashLength: HASH_BYTES,
      outputType: "encoded",
    });
  } finally {
    releaseHashMemory();
  }
}

export async function verifyPassword(password: string, encodedHash: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash: encodedHash });
  } finally {
    releaseHashMemory();
  }
}

/** Generates a password with 144 bits of randomness, for the first admin when none is configured. */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

/**
 * The list (lower-case) is imported when a password is first set, not at start: imported at start
 * it held about 8 MiB of every serving process, which mostly never sets a password. A scan of the
 * array rather than a Set built from it: it runs only when a password is set, and a Set would
 * double what the list keeps resident.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const { dictionary } = await import("@zxcvbn-ts/language-common");
  return dictionary["passwords-common"].includes(password.toLowerCase());
}

export async function passwordProblem(password: string): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  }
  if (await isCommonPassword(password)) {
    return "This password appears in lists of common or breached passwords; choose another";
  }
  return null;
}
