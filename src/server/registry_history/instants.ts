/**
 * The instants every registry record's changes and reads take (docs/institutions.md, docs/codes.md):
 * the `effectiveFrom` and `asOf` fields as zod schemas, and the instant a change requested for a
 * date takes effect, bounded ahead (src/domain/effective_dating.ts). Institutions, routing codes,
 * BICs and national routing entries all use these.
 */
import { z } from "zod";
import { EFFECTIVE_TOO_FAR, effectiveInstant, parseInstant } from "../../domain/effective_dating.ts";
import { AppError } from "../http/errors.ts";

export const INSTANT_FORMAT_MESSAGE =
  "Must be a date (2027-03-01) or an ISO date-time (2027-03-01T09:00:00Z)";

/** Longer than any ISO date-time; the text is parsed, this only bounds what is read. */
const MAX_INSTANT_LENGTH = 40;

function toInstant(text: string, ctx: z.RefinementCtx): string {
  const at = parseInstant(text);
  if (at === null) ctx.addIssue({ code: "custom", message: INSTANT_FORMAT_MESSAGE });
  return at ?? z.NEVER;
}

/** A date or a date-time, required, as an ISO instant. */
export const requiredInstant = z.string().trim().max(MAX_INSTANT_LENGTH).transform(toInstant);

/** A date or a date-time, as an ISO instant; blank or absent is none. */
export const instantField = z.string().trim().max(MAX_INSTANT_LENGTH).nullish().transform((text, ctx) =>
  text ? toInstant(text, ctx) : null
);

/** `?asOf=…` on the reads: the state in force then; absent means now. */
export const asOfQuery = z.object({
  asOf: instantField.describe(
    "The instant to answer as of: a date (2027-03-01, 00:00 UTC) or an ISO date-time; absent means now",
  ),
});

/** The instant a change requested for `requested` takes effect; 400 on `field` when too far ahead. */
export function effectiveFromOrNow(
  requested: string | null | undefined,
  nowMs: number,
  field = "effectiveFrom",
): string {
  const at = effectiveInstant(requested, nowMs);
  if (at === null) {
    throw new AppError("validation", `${field}: ${EFFECTIVE_TOO_FAR}`, {
      field,
      fields: { [field]: EFFECTIVE_TOO_FAR },
    });
  }
  return at;
}
