/**
 * Request and response shapes of the institution registry and the code lookup (spec 3, 5 and 7).
 * Exported so the OpenAPI document is generated from the same schemas the routes validate with;
 * paths and query names are a contract.
 */
import { z } from "zod";
import { routingCodeRecordSchema, swiftCodeRecordSchema } from "../../http/record_schemas.ts";
import {
  DEFAULT_NUMBER_OF_BRANCHES,
  INITIAL_INSTITUTION_STATUS,
  INSTITUTION_STATUSES,
  INSTITUTION_TYPES,
  MAX_ADDRESS_LENGTH,
  MAX_EMAIL_ADDRESS_LENGTH,
  MAX_INSTITUTION_NAME_LENGTH,
  MAX_LICENSE_NUMBER_LENGTH,
  MAX_NUMBER_OF_BRANCHES,
  MAX_PHONE_NUMBER_LENGTH,
  MAX_REGISTRATION_NUMBER_LENGTH,
  MAX_STATUS_CHANGE_REASON_LENGTH,
  MIN_NUMBER_OF_BRANCHES,
  SWIFT_MEMBERSHIP_TYPES,
} from "../../../domain/institution.ts";
import { optionalText, paginationQuery, requiredEnum, requiredText } from "../../http/validation.ts";
import { sortingFields } from "../../http/list_sorting.ts";
import { instantField } from "../../registry_history/code_changes.ts";

/** Long enough for any whole field value people paste (names are at most 255 characters). */
export const MAX_SEARCH_LENGTH = 255;
/** Queries shorter than this cannot use the trigram index and match by prefix instead. */
export const TRIGRAM_MIN_QUERY_LENGTH = 3;
/** SQLite's FTS5 query parser ends a string at a NUL, so such a search could only fail. */
export const SEARCH_NUL_MESSAGE = "Search text must not contain a NUL character";
const withoutNul = (text: string) => !text.includes("\u0000");

export const institutionSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(INSTITUTION_TYPES),
  registrationNumber: z.string(),
  licenseNumber: z.string().nullable(),
  address: z.string(),
  phoneNumber: z.string(),
  emailAddress: z.string(),
  numberOfBranches: z.number().int(),
  swiftParticipant: z.boolean(),
  swiftMembershipType: z.enum(SWIFT_MEMBERSHIP_TYPES).nullable(),
  status: z.enum(INSTITUTION_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
});
export type Institution = z.infer<typeof institutionSchema>;

/** The columns the registry list can be ordered by (the sortable table). */
export const INSTITUTION_SORT_KEYS = ["name", "type", "registrationNumber", "status", "createdAt"] as const;
export type InstitutionSortKey = (typeof INSTITUTION_SORT_KEYS)[number];

export const institutionListQuerySchema = paginationQuery.extend({
  /** Case-insensitive; blank means the full list. */
  search: z.string().trim().max(MAX_SEARCH_LENGTH).refine(withoutNul, SEARCH_NUL_MESSAGE).optional(),
  /** Only institutions in this status. */
  status: z.enum(INSTITUTION_STATUSES).optional(),
  /** Only institutions of this type. */
  type: z.enum(INSTITUTION_TYPES).optional(),
  /** Ties and the unsorted list: newest first. */
  ...sortingFields(INSTITUTION_SORT_KEYS),
});
export type InstitutionListQuery = z.infer<typeof institutionListQuerySchema>;

export const institutionIdParamSchema = z.object({ id: z.string().min(1).max(255) });

export const createInstitutionSchema = z.object({
  name: requiredText(MAX_INSTITUTION_NAME_LENGTH),
  type: requiredEnum(INSTITUTION_TYPES),
  registrationNumber: requiredText(MAX_REGISTRATION_NUMBER_LENGTH),
  licenseNumber: optionalText(MAX_LICENSE_NUMBER_LENGTH),
  address: requiredText(MAX_ADDRESS_LENGTH),
  phoneNumber: requiredText(MAX_PHONE_NUMBER_LENGTH),
  emailAddress: requiredText(MAX_EMAIL_ADDRESS_LENGTH).pipe(z.email()),
  numberOfBranches: z.number().int().min(MIN_NUMBER_OF_BRANCHES).max(MAX_NUMBER_OF_BRANCHES)
    .default(DEFAULT_NUMBER_OF_BRANCHES),
  swiftParticipant: z.boolean().default(false),
  swiftMembershipType: z.enum(SWIFT_MEMBERSHIP_TYPES).nullish().transform((value) => value ?? null),
  status: z.literal(INITIAL_INSTITUTION_STATUS, { error: "New institutions always start as pending" })
    .optional(),
}).superRefine((body, ctx) => {
  if (body.swiftMembershipType !== null && !body.swiftParticipant) {
    ctx.addIssue({
      code: "custom",
      path: ["swiftMembershipType"],
      message: "Only a SWIFT participant has a membership type",
    });
  }
});
export type CreateInstitutionInput = z.output<typeof createInstitutionSchema>;

export const statusChangeSchema = z.object({
  status: requiredEnum(INSTITUTION_STATUSES),
  /** Why the status changes; kept in the audit row. Blank means none given. */
  reason: optionalText(MAX_STATUS_CHANGE_REASON_LENGTH),
});

export const SEARCH_TYPES = ["routing", "swift", "institution"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const searchQuerySchema = paginationQuery.extend({
  type: requiredEnum(SEARCH_TYPES),
  query: requiredText(MAX_SEARCH_LENGTH).refine(withoutNul, SEARCH_NUL_MESSAGE),
  /** The records in force at this instant (docs/api.md); absent means now. */
  asOf: instantField,
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** GET /api/search answers an array of the records of the asked type. */
export const searchResultSchema = z.union([
  z.array(routingCodeRecordSchema),
  z.array(swiftCodeRecordSchema),
  z.array(institutionSchema),
]);
