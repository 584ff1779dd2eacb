/**
 * The browser's side of form validation: the same rules as the server's zod schemas (limits come
 * from the same constants), checked as the user types and on submit, shown inline next to each
 * field in one style. Forms set noValidate, so the browser's own bubbles never mix in. Built on
 * zod/mini, whose functions tree-shake, so a screen with a small form stays small.
 */
import { type core, email, maxLength, minLength, pipe, safeParse, string, trim, type ZodMiniType } from "zod/mini";
import type { FieldErrors } from "./form_input.ts";

export const REQUIRED = "Required";
export const INVALID_EMAIL = "Enter a valid e-mail address";

export const requiredText = (max: number) => string().check(trim(), minLength(1, REQUIRED), maxLength(max));
export const requiredEmail = (max: number) =>
  pipe(requiredText(max), email(INVALID_EMAIL));

export type { FieldErrors };

/** The first message per field of a failed parse, keyed by the field's top-level name. */
export function fieldErrors(error: core.$ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (field && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** Checks one field's value as the user types: its message, or undefined once it is valid. */
export function checkValue(rule: ZodMiniType, value: unknown): string | undefined {
  const result = safeParse(rule, value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
