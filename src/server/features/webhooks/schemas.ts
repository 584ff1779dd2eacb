/** Request and response shapes of the webhook endpoints (docs/webhooks.md). */
import { z } from "zod";
import {
  MAX_EVENT_KINDS_PER_WEBHOOK,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_KINDS,
} from "../../../domain/webhooks.ts";
import { checkEndpointUrl } from "../../http/outbound.ts";
import { optionalText } from "../../http/validation.ts";

const webhookUrl = z.string({ error: "Required" }).trim().min(1, "Required").max(MAX_WEBHOOK_URL_LENGTH)
  .superRefine((url, ctx) => {
    const checked = checkEndpointUrl(url);
    if (!checked.ok) ctx.addIssue({ code: "custom", message: checked.message });
  });

const eventKinds = z.array(
  z.enum(WEBHOOK_EVENT_KINDS, { error: () => `Must be one of ${WEBHOOK_EVENT_KINDS.join(", ")}` }),
  { error: "Required: a list of event kinds" },
)
  .min(1, "Choose at least one event kind")
  .max(MAX_EVENT_KINDS_PER_WEBHOOK, `At most ${MAX_EVENT_KINDS_PER_WEBHOOK} event kinds`)
  .refine((kinds) => new Set(kinds).size === kinds.length, "Each event kind may be listed once");

export const createWebhookBody = z.object({
  url: webhookUrl,
  eventKinds,
  description: optionalText(MAX_WEBHOOK_DESCRIPTION_LENGTH),
  enabled: z.boolean().default(true),
}).strict();
export type CreateWebhookInput = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z.object({
  url: webhookUrl.optional(),
  eventKinds: eventKinds.optional(),
  /** Absent: unchanged; null or blank: removed. */
  description: z.string().trim().max(MAX_WEBHOOK_DESCRIPTION_LENGTH).nullable().optional()
    .transform((value) => (value === "" ? null : value)),
  enabled: z.boolean().optional(),
}).strict().refine(
  (body) => Object.values(body).some((value) => value !== undefined),
  "Give at least one field to change: url, eventKinds, description or enabled",
);
export type UpdateWebhookInput = z.infer<typeof updateWebhookBody>;

export const webhookIdParam = z.object({ id: z.uuid() });
export const deliveryIdParam = z.object({ id: z.uuid() });

export const DEFAULT_DELIVERY_PAGE_SIZE = 50;
export const MAX_DELIVERY_PAGE_SIZE = 200;
export const deliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_DELIVERY_PAGE_SIZE).default(DEFAULT_DELIVERY_PAGE_SIZE),
});

export type { CreatedWebhook, Delivery, DeliveryAttempt, Webhook } from "../../../domain/webhooks.ts";
