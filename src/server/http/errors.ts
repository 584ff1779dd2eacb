/**
 * The one place where failures become HTTP responses. Routes throw AppError (or return a domain
 * error through `fromDomainError`); anything else is logged and answered with a bare 500.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HTTPException } from "hono/http-exception";

export type ErrorCode =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "bad_gateway"
  | "unavailable"
  | "internal";

const STATUS_BY_CODE: Record<ErrorCode, ContentfulStatusCode> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
};

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  /** Per-field messages, keyed by the request's field name (dotted for nested fields). */
  fields?: Record<string, string>;
  field?: string;
  [extra: string]: unknown;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { fields?: Record<string, string>; field?: string; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
  }

  get status(): ContentfulStatusCode {
    return STATUS_BY_CODE[this.code];
  }

  toBody(): ErrorBody {
    return {
      message: this.message,
      code: this.code,
      ...(this.details.fields ? { fields: this.details.fields } : {}),
      ...(this.details.field ? { field: this.details.field } : {}),
      ...this.details.extra,
    };
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const conflict = (field: string, message: string) =>
  new AppError("conflict", message, { field, fields: { [field]: message } });
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError("validation", message, { fields });

/**
 * Domain error codes (src/domain) that are not plain validation failures, with their HTTP meaning.
 * A domain code not listed here is a 400.
 */
const DOMAIN_CODE_TO_APP_CODE: Record<string, ErrorCode> = {
  insufficient_funds: "unprocessable",
  currency_mismatch: "unprocessable",
  inactive_account: "unprocessable",
  invalid_source_type: "unprocessable",
  invalid_target_type: "unprocessable",
  same_account: "unprocessable",
  balance_limit_exceeded: "unprocessable",
  serial_exhausted: "conflict",
  SERIAL_EXHAUSTED: "conflict",
  invalid_transition: "conflict",
  idempotency_mismatch: "unprocessable",
};

export function fromDomainError(error: { code: string; message: string; field?: string }): AppError {
  const code = DOMAIN_CODE_TO_APP_CODE[error.code] ?? "validation";
  return new AppError(code, error.message, {
    field: error.field,
    fields: error.field ? { [error.field]: error.message } : undefined,
    extra: { reason: error.code },
  });
}

const SQLITE_UNIQUE = /UNIQUE constraint failed: \w+\.(\w+)/;

function camelCase(column: string) {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Maps a constraint violation that slipped past validation to 409/400 instead of a 500. */
export function fromDatabaseError(error: unknown): AppError | null {
  const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : "";
  const unique = SQLITE_UNIQUE.exec(message);
  if (unique) {
    const field = camelCase(unique[1]);
    return conflict(field, `${field} already exists`);
  }
  if (message.includes("CHECK constraint failed")) {
    return new AppError("validation", "A value is outside its allowed range");
  }
  if (message.includes("FOREIGN KEY constraint failed")) {
    return new AppError("validation", "A referenced record does not exist");
  }
  return null;
}

export function handleError(error: unknown, c: Context): Response {
  if (error instanceof AppError) return c.json(error.toBody(), error.status);
  const fromDb = fromDatabaseError(error);
  if (fromDb) return c.json(fromDb.toBody(), fromDb.status);
  if (error instanceof HTTPException) {
    const status = error.status;
    const code: ErrorCode = status === 413
      ? "payload_too_large"
      : status === 401
      ? "unauthorized"
      : status === 403
      ? "forbidden"
      : status === 404
      ? "not_found"
      : status >= 500
      ? "internal"
      : "validation";
    const message = status === 413 ? "Payload Too Large" : error.message || "Bad Request";
    return c.json({ message, code } satisfies ErrorBody, status as ContentfulStatusCode);
  }
  console.error("unhandled error", c.req.method, c.req.path, error);
  return c.json({ message: "Internal Server Error", code: "internal" } satisfies ErrorBody, 500);
}
