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
  INSTITUTION_LIFECYCLE_STATUSES,
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
import { MAX_LEI_INPUT_LENGTH, validateLei } from "../../../domain/lei.ts";
import { optionalText, paginationQuery, requiredEnum, requiredText, resultValue } from "../../http/validation.ts";
import { sortingFields } from "../../http/list_sorting.ts";
import { requiredInstant as instantField } from "../../registry_history/instants.ts";

/** Routing codes and BICs are at most 11 characters; the bound only limits what is read. */
const MAX_CODE_LENGTH = 34;
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
  /** "terminated" from terminatedAt on; the stored status otherwise. */
  status: z.enum(INSTITUTION_LIFECYCLE_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  /** Legal Entity Identifier (ISO 17442). */
  lei: z.string().nullable(),
  /** When the institution is (or will be) terminated. */
  terminatedAt: z.string().nullable(),
  successorId: z.string().nullable(),
  successor: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Its deletion from the directory has been announced. */
  deletionAnnounced: z.boolean(),
});
export type Institution = z.infer<typeof institutionSchema>;

/** The columns the registry list can be ordered by (the sortable table). */
export const INSTITUTION_SORT_KEYS = ["name", "type", "registrationNumber", "status", "createdAt"] as const;
export type InstitutionSortKey = (typeof INSTITUTION_SORT_KEYS)[number];

/** The state in force at this instant instead of now. */
export const asOfQuerySchema = z.object({ asOf: instantField.optional() });

/** Blank clears it; otherwise a valid LEI, normalised. */
const leiField = z.string().trim().max(MAX_LEI_INPUT_LENGTH).nullish()
  .transform((text, ctx) => text ? resultValue(validateLei(text), ctx) : text === undefined ? undefined : null);

export const institutionListQuerySchema = paginationQuery.extend({
  /** Case-insensitive; blank means the full list. */
  search: z.string().trim().max(MAX_SEARCH_LENGTH).refine(withoutNul, SEARCH_NUL_MESSAGE).optional(),
  /** Only institutions in this status. */
  status: z.enum(INSTITUTION_LIFECYCLE_STATUSES).optional(),
  /** Only institutions of this type. */
  type: z.enum(INSTITUTION_TYPES).optional(),
  /** Ties and the unsorted list: newest first. */
  ...sortingFields(INSTITUTION_SORT_KEYS),
  /** The registry as in force at this instant (search then matches name, registration number or LEI). */
  asOf: instantField.optional(),
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
  lei: leiField.optional(),
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

const codeMap = z.record(z.string().trim().min(1).max(MAX_CODE_LENGTH), z.string().trim().min(1).max(MAX_CODE_LENGTH));

export const statusChangeSchema = z.object({
  status: requiredEnum(INSTITUTION_LIFECYCLE_STATUSES),
  /** Why the status changes; kept in the audit row. Blank means none given. */
  reason: optionalText(MAX_STATUS_CHANGE_REASON_LENGTH),
  /** When the change takes effect; omitted means at once. */
  effectiveFrom: instantField.optional(),
  /** A suspension's end: the institution is active again from then. */
  until: instantField.optional(),
  /** A termination's successor institution. */
  successorId: z.string().trim().min(1).max(255).optional(),
  /** A termination's successors of the institution's own routing codes and BICs, by code. */
  codeSuccessors: z.object({ routingCodes: codeMap.optional(), bics: codeMap.optional() }).optional(),
}).superRefine((body, ctx) => {
  if (body.until !== undefined && body.status !== "suspended") {
    ctx.addIssue({ code: "custom", path: ["until"], message: "Only a suspension has an end" });
  }
  if (body.status !== "terminated") {
    for (const field of ["successorId", "codeSuccessors"] as const) {
      if (body[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: "Only a termination has successors" });
    }
  }
});
export type StatusChangeInput = z.output<typeof statusChangeSchema>;

/** The details an effective-dated edit may change (PATCH /api/institutions/:id). */
export const INSTITUTION_EDITABLE_FIELDS = [
  "name",
  "address",
  "phoneNumber",
  "emailAddress",
  "licenseNumber",
  "numberOfBranches",
  "lei",
] as const;

export const institutionChangeSchema = z.object({
  name: requiredText(MAX_INSTITUTION_NAME_LENGTH).optional(),
  address: requiredText(MAX_ADDRESS_LENGTH).optional(),
  phoneNumber: requiredText(MAX_PHONE_NUMBER_LENGTH).optional(),
  emailAddress: requiredText(MAX_EMAIL_ADDRESS_LENGTH).pipe(z.email()).optional(),
  /** Blank or null clears it. */
  licenseNumber: z.string().trim().max(MAX_LICENSE_NUMBER_LENGTH).nullish()
    .transform((text) => text === undefined ? undefined : text || null),
  numberOfBranches: z.number().int().min(MIN_NUMBER_OF_BRANCHES).max(MAX_NUMBER_OF_BRANCHES).optional(),
  /** Blank or null clears it. */
  lei: leiField,
  /** When the change takes effect; omitted means at once. */
  effectiveFrom: instantField.optional(),
  /** Why; kept in the request and the audit row. */
  reason: optionalText(MAX_STATUS_CHANGE_REASON_LENGTH),
}).superRefine((body, ctx) => {
  if (INSTITUTION_EDITABLE_FIELDS.every((field) => body[field] === undefined)) {
    ctx.addIssue({ code: "custom", path: ["name"], message: `Change at least one of ${INSTITUTION_EDITABLE_FIELDS.join(", ")}` });
  }
});
export type InstitutionChangeInput = z.output<typeof institutionChangeSchema>;

export const SEARCH_TYPES = ["routing", "swift", "institution"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const searchQuerySchema = paginationQuery.extend({
  type: requiredEnum(SEARCH_TYPES),
  query: requiredText(MAX_SEARCH_LENGTH).refine(withoutNul, SEARCH_NUL_MESSAGE),
  /** The records as in force at this instant instead of now. */
  asOf: instantField.optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** GET /api/search answers an array of the records of the asked type. */
export const searchResultSchema = z.union([
  z.array(routingCodeRecordSchema),
  z.array(swiftCodeRecordSchema),
  z.array(institutionSchema),
]);
