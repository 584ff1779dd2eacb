/**
 * argon2id password hashing through hash-wasm (a maintained WebAssembly build of the reference code),
 * and the password policy: the rules of src/domain/password_policy.ts, not one of the common or
 * breached passwords that zxcvbn-ts ships (@zxcvbn-ts/language-common, about 50,000 entries drawn
 * from leaked lists), and a strength estimate by zxcvbn-ts of at least MIN_PASSWORD_SCORE.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { argon2id, argon2Verify } from "hash-wasm";
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  type PasswordOwner,
  passwordRuleProblems,
  passwordUserInputs,
} from "../../domain/password_policy.ts";
import type { PasswordHashCost } from "../config.ts";

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, type PasswordOwner };
/** zxcvbn's 0-4 scale: 3 is "safely unguessable: moderate protection from offline slow-hash scenario". */
export const MIN_PASSWORD_SCORE = 3;
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

/**
 * The estimator with the common and English dictionaries, built when a password is checked (about
 * 200 ms and 37 MB of heap, measured) and let go after ESTIMATOR_IDLE_MS without a check: passwords
 * are set in bursts (a new team, a reset round), and a serving process should not carry the
 * dictionaries for the rest of its life.
 */
export const ESTIMATOR_IDLE_MS = 60_000;
let estimator: Promise<ZxcvbnFactory> | null = null;
let releaseTimer: ReturnType<typeof setTimeout> | undefined;

function strengthEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]).then(([core, common, en]) =>
    new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    })
  );
  clearTimeout(releaseTimer);
  const timer = setTimeout(() => {
    estimator = null;
    releaseHashMemory();
  }, ESTIMATOR_IDLE_MS);
  // The release must not keep a CLI script (user:add) alive for a minute.
  Deno.unrefTimer(timer);
  releaseTimer = timer;
  return estimator;
}

/** zxcvbn's warning and suggestions as one clause each: "this is similar to a commonly used password". */
function clauses(feedback: { warning: string | null; suggestions: string[] }): string {
  const parts = [feedback.warning, ...feedback.suggestions]
    .filter((part): part is string => !!part)
    .map((part) => part.replace(/\.$/, ""))
    .map((part) => part.charAt(0).toLowerCase() + part.slice(1));
  return parts.length > 0
    ? parts.join("; ")
    : "add another word or two; avoid dates and common substitutions";
}

/**
 * Every reason the password is refused for this person, one sentence each; empty when it is good.
 * The list and the estimate are asked only when the rules pass: a rule's reason is the more exact one.
 */
export async function passwordProblems(
  password: string,
  owner: PasswordOwner,
  minLength: number = MIN_PASSWORD_LENGTH,
): Promise<string[]> {
  const problems = passwordRuleProblems(password, owner, minLength);
  if (problems.length > 0) return problems;
  if (await isCommonPassword(password)) {
    return ["This password appears in lists of common or breached passwords; choose another"];
  }
  const estimate = (await strengthEstimator()).check(password.normalize("NFKC"), passwordUserInputs(owner));
  return estimate.score < MIN_PASSWORD_SCORE ? [`Too easy to guess: ${clauses(estimate.feedback)}`] : [];
}

/**
 * The reasons as one message ("First reason. Second reason"), or null when the password is good;
 * `minLength` comes from the password policy (minimumPasswordLength of the system settings).
 */
export async function passwordProblem(
  password: string,
  owner: PasswordOwner,
  minLength: number = MIN_PASSWORD_LENGTH,
): Promise<string | null> {
  const problems = await passwordProblems(password, owner, minLength);
  return problems.length > 0 ? problems.join(". ") : null;
}
