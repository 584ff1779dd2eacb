/** Request shapes of the directory endpoints (docs/directory.md). */
import { z } from "zod";
import { parseInstant } from "../../../domain/effective_dating.ts";
import { MAX_REASON_LENGTH } from "../../../domain/approval.ts";

export const INVALID_EFFECTIVE_DATE = "Must be a date (2027-03-01) or an ISO date-time";

const effectiveDate = z.string().trim().min(1, "Required").transform((text, ctx) => {
  const instant = parseInstant(text);
  if (instant === null) {
    ctx.addIssue({ code: "custom", message: INVALID_EFFECTIVE_DATE });
    return z.NEVER;
  }
  return instant;
});

/** POST /api/directory/editions: the edition's effective date and why it is published. */
export const prepareEditionSchema = z.object({
  effectiveDate,
  reason: z.string().trim().min(1, "Required").max(MAX_REASON_LENGTH),
});

/** GET /api/directory/next: what an edition effective then would publish. */
export const nextEditionQuerySchema = z.object({ effectiveDate });

/** An edition's number in a download path. */
export const editionParamSchema = z.object({
  n: z.string().regex(/^[1-9][0-9]{0,8}$/, "Must be an edition number (1, 2, …)").transform(Number),
});
