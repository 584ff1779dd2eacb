/**
 * Form input checks that need no schema library, so a screen that uses only these does not load
 * zod: the server's field messages, and a JSON object typed into a text area.
 */
import { ApiError } from "./api.ts";

export type FieldErrors = Record<string, string>;

/** A 400 from the server names fields; show them next to the inputs as well as in the toast. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.status === 401) return {};
  try {
    const fields = JSON.parse(error.bodyText)?.fields;
    return fields && typeof fields === "object" ? fields : {};
  } catch {
    return {};
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Blank: null, so the server's default applies. Otherwise the text must parse to a JSON object. */
export function parseJsonObject(text: string, subject: string, example: string): Parsed<Record<string, unknown> | null> {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    const value = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, message: `${subject} must be a JSON object, like ${example}` };
    }
    return { ok: true, value };
  } catch {
    return { ok: false, message: `${subject} must be valid JSON` };
  }
}
