/**
 * Validation at the edge: every route validates with zod through `validate`, and failures answer
 * 400 with one message per field.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { z } from "zod";
import { AppError } from "./errors.ts";

// The spec asks for the generic library's default messages, "Required" for a missing field.
z.config({
  customError: (issue) => (issue.input === undefined && issue.code === "invalid_type" ? "Required" : undefined),
});

export function issuesToFields(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
    fields[key] ??= issue.message;
  }
  return fields;
}

export function validationError(issues: readonly z.core.$ZodIssue[]): AppError {
  const fields = issuesToFields(issues);
  const summary = Object.entries(fields).map(([field, message]) => `${field}: ${message}`).join("; ");
  return new AppError("validation", summary || "Invalid request", { fields });
}

export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(result.error.issues);
  });
}

/** Bounded text: trimmed, required, at most `max` characters. */
export const requiredText = (max: number) => z.string().trim().min(1, "Required").max(max);
/** Optional text: blank becomes null. */
export const optionalText = (max: number) =>
  z.string().trim().max(max).nullish().transform((value) => (value ? value : null));

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});
