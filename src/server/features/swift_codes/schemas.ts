/** Request and response shapes of the SWIFT/BIC endpoints (also the source of their OpenAPI description). */
import { z } from "zod";
import { swiftCodeRecordSchema } from "../../http/record_schemas.ts";
import { validateBic } from "../../../domain/bic.ts";
import { SWIFT_MEMBERSHIP_TYPES } from "../../../../db/schema.ts";
import { CODE_LIFECYCLE_STATUSES } from "../../../domain/code_lifecycle.ts";
import { requiredText } from "../../http/validation.ts";
import { codeStatusChangeFields, pendingChangeSchema } from "../../registry_history/code_changes.ts";
import { instantField } from "../../registry_history/instants.ts";

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
  /** Absent: in force at once; later: stored inactive and active from then (docs/codes.md). */
  effectiveFrom: instantField,
});
export type RegisterSwiftCodeInput = z.infer<typeof registerSwiftCodeBody>;

export const bicParam = z.object({ bic: bicCode });

export const swiftCodeSchema = swiftCodeRecordSchema.extend({ status: z.enum(CODE_LIFECYCLE_STATUSES) });
export type SwiftCode = z.infer<typeof swiftCodeSchema>;

/** The BIC that succeeds a terminated one, as of the same instant. */
export const swiftCodeSuccessorSchema = z.object({
  bic: z.string(),
  institutionId: z.string(),
  status: z.enum(CODE_LIFECYCLE_STATUSES),
});

/** A lookup's answer: the BIC as in force at the instant asked, with its successor when terminated. */
export const swiftCodeLookupSchema = swiftCodeSchema.extend({ successor: swiftCodeSuccessorSchema.nullable() });
export type SwiftCodeLookupAnswer = z.infer<typeof swiftCodeLookupSchema>;

/** A list row also carries its changes still to come. */
export const swiftCodeListItemSchema = swiftCodeSchema.extend({ pendingChanges: z.array(pendingChangeSchema) });
export type SwiftCodeListItem = z.infer<typeof swiftCodeListItemSchema>;
export const swiftCodeListSchema = z.array(swiftCodeListItemSchema);

export const swiftCodeStatusBody = z.object({
  ...codeStatusChangeFields,
  /** Only with "terminated": the BIC that takes over; it must exist and differ. */
  successorBic: z.string().trim().nullish().transform((value) => value || null).superRefine((bic, ctx) => {
    if (bic === null) return;
    const result = validateBic(bic);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  }),
});
export type SwiftCodeStatusChange = z.infer<typeof swiftCodeStatusBody>;
