/**
 * Validation at the edge: every route validates with zod through `validate`, and failures answer
 * 400 with one message per field.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { z } from "zod";
import type { Minor } from "../../domain/money.ts";
import type { Result } from "../../domain/result.ts";
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

/** Spec 5: a missing field says "Required", enumerations included. */
export const requiredEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? "Required" : undefined) });

/** A domain rule's result inside a zod transform: its value, or its message as the field's issue. */
export function resultValue<T>(result: Result<T>, ctx: z.RefinementCtx): T {
  if (result.ok) return result.value;
  ctx.addIssue({ code: "custom", message: result.error.message });
  return z.NEVER;
}

/** A decimal as typed, a string like "125.50" or a JSON number; `label` names it when it is neither. */
export const decimalInput = (label: string) =>
  z.unknown().transform((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message: "Required" });
      return z.NEVER;
    }
    if (typeof value !== "string" && typeof value !== "number") {
      ctx.addIssue({ code: "custom", message: `${label} must be a decimal string like 1250.00` });
      return z.NEVER;
    }
    return value;
  });

/** One of the domain's money rules (non-negative, positive, …) applied to a decimal as typed. */
export type MoneyRule = (input: string | number, field?: string) => Result<Minor>;

/** A decimal string ("1250.00") or a JS number, parsed exactly into minor units (never rounded) by `rule`. */
export const moneyAmount = (rule: MoneyRule, field?: string) =>
  z.union([z.string(), z.number()]).transform((value, ctx) => resultValue(rule(value, field), ctx));

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});
