/**
 * Response shapes of the registry's code records, which more than one feature answers with: a
 * code's own endpoints narrow `status` to the code statuses, the search documents it as text.
 */
import { z } from "zod";

/** A code's lifecycle as of the instant answered (docs/codes.md): "terminated" from terminatedAt on. */
const lifecycleFields = {
  terminatedAt: z.string().nullable(),
  deletionAnnouncedAt: z.string().nullable(),
  deletionAnnounced: z.boolean(),
};

export const routingCodeRecordSchema = z.object({
  id: z.string(),
  institutionId: z.string(),
  code: z.string(),
  prefix: z.string(),
  branchCode: z.string().nullable(),
  description: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  successorCode: z.string().nullable(),
  ...lifecycleFields,
});

export const swiftCodeRecordSchema = z.object({
  id: z.string(),
  institutionId: z.string(),
  bicCode: z.string(),
  bankCode: z.string(),
  countryCode: z.string(),
  locationCode: z.string(),
  branchCode: z.string().nullable(),
  membershipType: z.string().nullable(),
  status: z.string(),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  successorBic: z.string().nullable(),
  ...lifecycleFields,
});
