/** The Webhooks tab's data: /api/webhooks and the delivery log (docs/webhooks.md). */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import type { CreatedWebhook, Delivery, Webhook } from "../../../domain/webhooks.ts";

export const WEBHOOKS_KEY = "/api/webhooks";

export type { CreatedWebhook, Delivery, DeliveryAttempt, Webhook } from "../../../domain/webhooks.ts";

export interface WebhookInput {
  url: string;
  description: string | null;
  eventKinds: string[];
}

export const deliveriesKey = (webhookId: string) =>
  `${WEBHOOKS_KEY}/${encodeURIComponent(webhookId)}/deliveries`;

/** A delivery log that refreshes itself while it is open, since the worker sends in the background. */
export const DELIVERY_LOG_REFRESH_MS = 5_000;

export const useWebhooks = () => useQuery<Webhook[]>({ queryKey: [WEBHOOKS_KEY] });

export const useDeliveries = (webhookId: string) =>
  useQuery<Delivery[]>({ queryKey: [deliveriesKey(webhookId)], refetchInterval: DELIVERY_LOG_REFRESH_MS });

export const useCreateWebhook = (
  onCreated: (created: CreatedWebhook) => void,
  onError: (error: Error) => void,
) =>
  useApiMutation({
    mutationFn: (input: WebhookInput) => apiJson<CreatedWebhook>("POST", WEBHOOKS_KEY, input),
    invalidates: [WEBHOOKS_KEY],
    errorTitle: "Failed to create webhook",
    onSuccess: onCreated,
    onError,
  });

export const useSetWebhookEnabled = () =>
  useApiMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      apiJson<Webhook>("PATCH", `${WEBHOOKS_KEY}/${encodeURIComponent(id)}`, { enabled }),
    invalidates: [WEBHOOKS_KEY],
    errorTitle: "Failed to change the webhook",
  });

export const useDeleteWebhook = (onDeleted: () => void) =>
  useApiMutation({
    mutationFn: (id: string) => apiJson<null>("DELETE", `${WEBHOOKS_KEY}/${encodeURIComponent(id)}`),
    invalidates: [WEBHOOKS_KEY],
    errorTitle: "Failed to remove webhook",
    onSuccess: onDeleted,
  });

export const useRedeliver = (webhookId: string) =>
  useApiMutation({
    mutationFn: (deliveryId: string) =>
      apiJson<Delivery>("POST", `/api/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
    invalidates: [deliveriesKey(webhookId)],
    errorTitle: "Failed to redeliver",
  });
