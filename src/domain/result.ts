/**
 * Typed results for expected failures. Domain functions return these instead of throwing, so
 * callers must handle a rejection explicitly; throwing is reserved for broken invariants.
 *
 * @module
 */

/** An expected failure: a stable machine-readable code, a human message, and optionally the field at fault. */
export interface DomainError {
  code: string;
  message: string;
  field?: string;
}

export type Result<T, E = DomainError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function err(
  code: string,
  message: string,
  field?: string,
): { ok: false; error: DomainError } {
  return { ok: false, error: field === undefined ? { code, message } : { code, message, field } };
}
