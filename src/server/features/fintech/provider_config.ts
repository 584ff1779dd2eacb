/** Chooses each provider's adapter at start: the real HTTP client when configured, else the sandbox. */
import { createPlaidHttp } from "./plaid_http.ts";
import { createPlaidSandbox } from "./plaid_sandbox.ts";
import type { PlaidSettings, VisaSettings } from "./provider_env.ts";
import type { AccountDataProvider, CardNetworkProvider } from "./providers.ts";
import { createVisaHttp } from "./visa_http.ts";
import { createVisaSandbox } from "./visa_sandbox.ts";

export interface FintechProviders {
  plaid: AccountDataProvider;
  visa: CardNetworkProvider;
}

/** The TLS client for Visa: the client certificate (mutual TLS) and any extra trusted CA. */
function visaClient(visa: VisaSettings): Deno.HttpClient | undefined {
  if (!visa.certFile && !visa.caFile) return undefined;
  return Deno.createHttpClient({
    ...(visa.certFile && visa.keyFile
      ? { cert: Deno.readTextFileSync(visa.certFile), key: Deno.readTextFileSync(visa.keyFile) }
      : {}),
    ...(visa.caFile ? { caCerts: [Deno.readTextFileSync(visa.caFile)] } : {}),
  });
}

/** Each provider live when its credentials are configured, otherwise its sandbox. */
export function providersFrom({ plaid, visa }: { plaid: PlaidSettings | null; visa: VisaSettings | null }): FintechProviders {
  return {
    plaid: plaid ? createPlaidHttp(plaid) : createPlaidSandbox(),
    visa: visa ? createVisaHttp({ ...visa, client: visaClient(visa) }) : createVisaSandbox(),
  };
}
