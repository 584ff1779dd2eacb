/**
 * argon2id password hashing through hash-wasm (a maintained WebAssembly build of the reference code),
 * and the password policy: at least 12 characters, and not one of the common or breached passwords
 * that zxcvbn-ts ships (@zxcvbn-ts/language-common, about 50,000 entries drawn from leaked lists).
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { argon2id, argon2Verify } from "hash-wasm";
import type { PasswordHashCost } from "../config.ts";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

export function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  return argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(SALT_BYTES)),
    parallelism: cost.parallelism,
    iterations: cost.iterations,
    memorySize: cost.memoryKiB,
    hashLength: HASH_BYTES,
    outputType: "encoded",
  });
}

export function verifyPassword(password: string, encodedHash: string): Promise<boolean> {
  return argon2Verify({ password, hash: encodedHash });
}

/** Generates a password with 144 bits of randomness, for the first admin when none is configured. */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

/** The list is lower-case; built on first use so that processes which never set a password skip it. */
let commonPasswords: Set<string> | null = null;

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary["passwords-common"]);
  return commonPasswords.has(password.toLowerCase());
}

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  }
  if (isCommonPassword(password)) {
    return "This password appears in lists of common or breached passwords; choose another";
  }
  return null;
}
