/**
 * Where a webhook may point, checked when it is registered or its URL changes (and again by the
 * guard at every delivery, since a name may resolve elsewhere later): https, except plain http to a
 * host the operator allow-listed; and, unless allow-listed, a host whose every address is public.
 */
import { AppError } from "../../http/errors.ts";
import {
  approvedAddresses,
  isAllowListed,
  OutboundFailure,
  type OutboundPolicy,
} from "../../http/outbound.ts";

/** How long registration waits for the host name to resolve. */
export const REGISTRATION_LOOKUP_TIMEOUT_MS = 5_000;

function refuse(message: string): never {
  throw new AppError("validation", message, { fields: { url: message } });
}

export async function checkDestination(raw: string, policy: OutboundPolicy): Promise<void> {
  const url = new URL(raw);
  const allowListed = isAllowListed(url, policy.allowedHosts);
  if (url.protocol !== "https:" && !allowListed) {
    refuse(`Must use https; plain http is accepted only for a host listed in ${policy.allowListSetting}`);
  }
  if (allowListed) return;
  const signal = AbortSignal.timeout(REGISTRATION_LOOKUP_TIMEOUT_MS);
  try {
    await approvedAddresses(url, policy, signal);
  } catch (error) {
    if (error instanceof OutboundFailure) refuse(error.message);
    if (signal.aborted) {
      refuse(`Host ${url.hostname} did not resolve within ${REGISTRATION_LOOKUP_TIMEOUT_MS} ms`);
    }
    const code = (error as { code?: unknown })?.code;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") {
      refuse(`Host ${url.hostname} could not be resolved`);
    }
    throw error;
  }
}
