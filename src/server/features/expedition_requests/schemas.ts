/** Request and response shapes of the expedition requests (spec 2.13, recorded by the console). */
import { z } from "zod";
import {
  EXPEDITION_PARTNER_NAMES,
  EXPEDITION_PARTNERS,
  EXPEDITION_STATUSES,
  type ExpeditionPartner,
  type ExpeditionStatus,
  isExpeditionMethod,
  MAX_JUSTIFICATION_LENGTH,
  MAX_STATUS_NOTE_LENGTH,
} from "../../../domain/expedition.ts";
import { optionalText, requiredEnum, requiredText } from "../../http/validation.ts";

/** The longest method value is 20 characters; anything much longer is not one of them. */
const MAX_METHOD_LENGTH = 64;

export const createExpeditionRequestBody = z.object({
  partner: requiredEnum(EXPEDITION_PARTNERS),
  method: requiredText(MAX_METHOD_LENGTH),
  justification: requiredText(MAX_JUSTIFICATION_LENGTH),
}).superRefine((body, ctx) => {
  if (!isExpeditionMethod(body.partner, body.method)) {
    ctx.addIssue({
      code: "custom",
      path: ["method"],
      message: `Not one of the choices offered for ${EXPEDITION_PARTNER_NAMES[body.partner]}`,
    });
  }
});
export type CreateExpeditionRequestInput = z.infer<typeof createExpeditionRequestBody>;

export const updateExpeditionStatusBody = z.object({
  status: requiredEnum(EXPEDITION_STATUSES),
  note: optionalText(MAX_STATUS_NOTE_LENGTH),
});
export type UpdateExpeditionStatusInput = z.infer<typeof updateExpeditionStatusBody>;

export interface PersonRef {
  id: string;
  name: string;
}

export interface ExpeditionRequest {
  id: string;
  partner: ExpeditionPartner;
  method: string;
  justification: string;
  status: ExpeditionStatus;
  requestedBy: PersonRef;
  requestedAt: string;
  statusChangedBy: PersonRef | null;
  statusChangedAt: string | null;
  statusNote: string | null;
}
