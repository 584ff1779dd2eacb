/** The shape of a feature's first-start data step; startup/seed.ts runs them in order. */
import type { AppDeps } from "../http/context.ts";

/** A password made at this start, for someone's first sign-in: printed once, in its own block. */
export interface StartCredential {
  email: string;
  role: string;
  password: string;
}

/**
 * A seeder logs what it did with `log`; the passwords it makes go to `credentials` instead, which
 * the start prints once, apart from every other line (startup/first_sign_in_notes.ts).
 */
export type Seeder = (
  deps: AppDeps,
  log: (line: string) => void,
  credentials: (credential: StartCredential) => void,
) => Promise<void>;
