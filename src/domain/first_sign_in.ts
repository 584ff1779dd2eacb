/**
 * The steps of a sign-in that asks more than a password: a first sign-in (a one-time password to
 * replace, an authenticator to set up) or one after a password reset. The sign-in pages and the
 * console's password screen draw the same "Step n of N" from them, computed from what the user
 * still had to do when the password was accepted.
 */

export type SignInStepId = "password" | "enrol" | "recovery_codes" | "verify" | "new_password";

export interface SignInStep {
  id: SignInStepId;
  label: string;
}

const LABELS: Record<SignInStepId, string> = {
  password: "Sign in with your password",
  enrol: "Set up your authenticator app",
  recovery_codes: "Save your recovery codes",
  verify: "Enter the code from your authenticator app",
  new_password: "Choose a new password",
};

export interface SignInFacts {
  /** What the second factor asks at this sign-in: an enrolment, a code, or nothing. */
  secondFactor: "enrol" | "verify" | null;
  /** An initial or reset password is still in use. */
  mustChangePassword: boolean;
}

/**
 * Every step of this sign-in in the order the console asks them, or an empty list for an ordinary
 * sign-in (a password, then perhaps a code), which needs no indicator.
 */
export function signInSteps(facts: SignInFacts): SignInStep[] {
  if (facts.secondFactor !== "enrol" && !facts.mustChangePassword) return [];
  const ids: SignInStepId[] = ["password"];
  if (facts.secondFactor === "enrol") ids.push("enrol", "recovery_codes");
  if (facts.secondFactor === "verify") ids.push("verify");
  if (facts.mustChangePassword) ids.push("new_password");
  return ids.map((id) => ({ id, label: LABELS[id] }));
}

/** "Step 2 of 4: Set up your authenticator app", or null when the step is not part of the list. */
export function stepHeading(steps: readonly SignInStep[], current: SignInStepId): string | null {
  const index = steps.findIndex((step) => step.id === current);
  if (index < 0) return null;
  return `Step ${index + 1} of ${steps.length}: ${steps[index].label}`;
}
