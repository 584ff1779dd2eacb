/** Request and response shapes of the SWIFT/BIC endpoints (also the source of their OpenAPI description). */
import { z } from "zod";
import { swiftCodeRecordSchema } from "../../http/record_schemas.ts";
import { validateBic } from "../../../domain/bic.ts";
import { CODE_STATUSES, SWIFT_MEMBERSHIP_TYPES } from "../../../../db/schema.ts";
import { requiredText } from "../../http/validation.ts";

export const MAX_INSTITUTION_ID_LENGTH = 255;

/**
 * A BIC exactly as registered (only surrounding spaces are dropped): lower case is refused with
 * the domain's reason rather than silently upper-cased.
 */
export const bicCode = z.string().trim().superRefine((bic, ctx) => {
  const result = validateBic(bic);
  if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
});

/** A calendar date ("2026-06-30", read as 00:00 UTC) or an ISO-8601 timestamp; blank means none. */
const dateOrTimestamp = z.union([z.iso.datetime({ offset: true }), z.iso.date(), z.literal("")])
  .nullish()
  .transform((value) => (value ? new Date(value).toISOString() : null));

export const registerSwiftCodeBody = z.object({
  institutionId: requiredText(MAX_INSTITUTION_ID_LENGTH),
  bicCode,
  /** Blank means a standard (non-member) registration. */
  membershipType: z.union([z.enum(SWIFT_MEMBERSHIP_TYPES), z.literal("")]).nullish()
    .transform((value) => value || null),
  validFrom: dateOrTimestamp,
  validUntil: dateOrTimestamp,
});
export type RegisterSwiftCodeInput = z.infer<typeof registerSwiftCodeBody>;

export const bicParam = z.object({ bic: bicCode });

export const swiftCodeSchema = swiftCodeRecordSchema.extend({ status: z.enum(CODE_STATUSES) });
export type SwiftCode = z.infer<typeof swiftCodeSchema>;

export const swiftCodeListSchema = z.array(swiftCodeSchema);
