/** Request and response shapes of the routing-code endpoints (also the source of their OpenAPI description). */
import { z } from "zod";
import { routingCodeRecordSchema } from "../../http/record_schemas.ts";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { ROUTING_PREFIX_LENGTH, validateRoutingCode } from "../../../domain/routing_code.ts";
import { CODE_LIFECYCLE_STATUSES } from "../../../domain/code_lifecycle.ts";
import { optionalText, requiredText } from "../../http/validation.ts";
import { codeStatusChangeFields, pendingChangeSchema } from "../../registry_history/code_changes.ts";
import { instantField } from "../../registry_history/instants.ts";

export const MAX_BRANCH_CODE_LENGTH = 10;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MAX_INSTITUTION_ID_LENGTH = 255;

/**
 * What people type: surrounding spaces and lower case a-z are accepted, then exactly three letters
 * A-Z (toUpperCase() would also turn "ſ" into "S").
 */
export const routingPrefix = z.string().trim().overwrite(asciiUpperCase).regex(
  /^[A-Z]{3}$/,
  `Prefix must be exactly ${ROUTING_PREFIX_LENGTH} letters (A-Z)`,
);

export const generatePreviewBody = z.object({ prefix: routingPrefix });

export const assignRoutingCodeBody = z.object({
  institutionId: requiredText(MAX_INSTITUTION_ID_LENGTH),
  prefix: routingPrefix,
  branchCode: optionalText(MAX_BRANCH_CODE_LENGTH),
  description: optionalText(MAX_DESCRIPTION_LENGTH),
  /** Absent: in force at once; later: stored inactive and active from then (docs/codes.md). */
  effectiveFrom: instantField,
});
export type AssignRoutingCodeInput = z.infer<typeof assignRoutingCodeBody>;

/** The code exactly as assigned; wrong check digits are a 400 before any lookup. */
export const routingCodeParam = z.object({
  code: z.string().superRefine((code, ctx) => {
    const result = validateRoutingCode(code);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  }),
});

export const routingCodeSchema = routingCodeRecordSchema.extend({ status: z.enum(CODE_LIFECYCLE_STATUSES) });
export type RoutingCode = z.infer<typeof routingCodeSchema>;

/** The code that succeeds a terminated one, as of the same instant. */
export const routingCodeSuccessorSchema = z.object({
  code: z.string(),
  institutionId: z.string(),
  status: z.enum(CODE_LIFECYCLE_STATUSES),
});

/** A lookup's answer: the code as in force at the instant asked, with its successor when terminated. */
export const routingCodeLookupSchema = routingCodeSchema.extend({ successor: routingCodeSuccessorSchema.nullable() });
export type RoutingCodeLookupAnswer = z.infer<typeof routingCodeLookupSchema>;

/** A list row also names the institution (null only if it no longer exists) and its changes still to come. */
export const routingCodeListItemSchema = routingCodeSchema.extend({
  institutionName: z.string().nullable(),
  pendingChanges: z.array(pendingChangeSchema),
});
export type RoutingCodeListItem = z.infer<typeof routingCodeListItemSchema>;
export const routingCodeListSchema = z.array(routingCodeListItemSchema);
export const routingCodePreviewSchema = z.object({ code: z.string() });

export const routingCodeStatusBody = z.object({
  ...codeStatusChangeFields,
  /** Only with "terminated": the code that takes over; it must exist and differ. */
  successorCode: z.string().trim().nullish().transform((value) => value || null).superRefine((code, ctx) => {
    if (code === null) return;
    const result = validateRoutingCode(code);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.error.message });
  }),
});
export type RoutingCodeStatusChange = z.infer<typeof routingCodeStatusBody>;
