/** The webhooks' network settings, read once at start by config.ts (docs/webhooks.md, "Network"). */
import type { OutboundPolicy } from "../../http/outbound.ts";

/**
 * Hosts ("host" for any port, "host:port" for one) that webhooks may reach although they are
 * loopback, private or link-local, and over plain http; nothing else may use http.
 */
export const WEBHOOK_ALLOWED_HOSTS_ENV = "WEBHOOK_ALLOWED_HOSTS";

export function webhookPolicy(allowedHosts: ReadonlySet<string>): OutboundPolicy {
  return { allowedHosts, purpose: "webhooks", allowListSetting: WEBHOOK_ALLOWED_HOSTS_ENV };
}
