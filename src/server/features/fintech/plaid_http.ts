/**
 * Plaid over HTTP, modelled on Plaid's /auth/get and /accounts/balance/get. Credentials travel in
 * the JSON body as `client_id` and `secret`, as Plaid's API expects. Plaid addresses accounts
 * through an access_token obtained with Plaid Link; the console verifies accounts by number
 * instead, so requests carry the account and routing numbers (or account ids) where Plaid has the
 * token: PLAID_BASE_URL must point at a Plaid-compatible service that accepts them.
 *
 *   POST {base}/auth/get                {client_id, secret, account_number, routing_number}
 *     200 {accounts: [{account_id, mask, verification_status}], numbers: {ach: [...]}, request_id}
 *   POST {base}/accounts/balance/get    {client_id, secret, options: {account_ids: [accountId]}}
 *     200 {accounts: [{account_id, balances: {available, current, iso_currency_code}}], request_id}
 *   errors: 4xx/5xx {error_type, error_code, error_message, display_message, request_id}
 */
import { z } from "zod";
import { parseMoney } from "../../../domain/money.ts";
import { type HttpOutcome, joinUrl, postJson } from "./http.ts";
import {
  type AccountBalance,
  type AccountDataProvider,
  type AccountVerification,
  type ProviderOutcome,
  rejected,
  unavailable,
} from "./providers.ts";

export const PLAID_AUTH_PATH = "/auth/get";
export const PLAID_BALANCE_PATH = "/accounts/balance/get";

export interface PlaidHttpConfig {
  baseUrl: string;
  clientId: string;
  secret: string;
  timeoutMs: number;
}

/** Plaid's verification_status values that mean the account is verified, and how. */
const VERIFIED_STATUSES: Readonly<Record<string, string>> = {
  automatically_verified: "instant_auth",
  manually_verified: "micro_deposits",
  database_matched: "database_match",
};
/** Instant Auth accounts carry no verification_status at all. */
const INSTANT_AUTH = "instant_auth";
/** Error types that describe the request or the account, not Plaid's health or our credentials. */
const CALLER_ERROR_TYPES = new Set(["INVALID_REQUEST", "INVALID_INPUT", "INVALID_RESULT", "ITEM_ERROR"]);
const CREDENTIAL_ERROR_CODES = new Set(["INVALID_API_KEYS", "UNAUTHORIZED_ENVIRONMENT", "INVALID_CLIENT_ID"]);
const MAX_ERROR_MESSAGE_LENGTH = 300;

const plaidError = z.object({
  error_type: z.string(),
  error_code: z.string(),
  error_message: z.string().nullish(),
  display_message: z.string().nullish(),
});

const authResponse = z.object({
  accounts: z.array(z.object({
    account_id: z.string().min(1),
    mask: z.string().nullish(),
    verification_status: z.string().nullish(),
  })),
  request_id: z.string().default(""),
});

const balanceResponse = z.object({
  accounts: z.array(z.object({
    account_id: z.string().min(1),
    balances: z.object({
      available: z.number().nullish(),
      current: z.number().nullish(),
      iso_currency_code: z.string().nullish(),
    }),
  })),
  request_id: z.string().default(""),
});

/** Maps a transport failure or an error status to a failure; null when the status is a success. */
function failureOf(outcome: HttpOutcome, timeoutMs: number): ProviderOutcome<never> | null {
  if (outcome.kind === "timeout") return unavailable("provider_timeout", `Plaid did not answer within ${timeoutMs} ms`);
  if (outcome.kind === "network") return unavailable("provider_unreachable", "Plaid could not be reached");
  if (outcome.status >= 200 && outcome.status < 300) return null;
  const error = plaidError.safeParse(outcome.body);
  if (!error.success) return unavailable("provider_error", `Plaid answered HTTP ${outcome.status}`);
  const { error_type: type, error_code: code } = error.data;
  const message = (error.data.display_message || error.data.error_message || code).slice(0, MAX_ERROR_MESSAGE_LENGTH);
  if (CREDENTIAL_ERROR_CODES.has(code) || outcome.status === 401 || outcome.status === 403) {
    return unavailable("provider_auth_failed", "Plaid refused the configured credentials");
  }
  if (outcome.status < 500 && outcome.status !== 429 && CALLER_ERROR_TYPES.has(type)) {
    return rejected(code.toLowerCase(), message);
  }
  return unavailable("provider_error", `Plaid error ${code}`);
}

const badResponse = () => unavailable("provider_bad_response", "Plaid's answer could not be read");

/** Plaid sends balances as JSON numbers; they must denote an exact amount in cents. */
function toMinor(value: number | null | undefined): { ok: true; value: bigint | null } | { ok: false } {
  if (value === null || value === undefined) return { ok: true, value: null };
  const parsed = parseMoney(value);
  return parsed.ok ? parsed : { ok: false };
}

export function createPlaidHttp(config: PlaidHttpConfig): AccountDataProvider {
  const credentials = { client_id: config.clientId, secret: config.secret };
  const post = (path: string, body: Record<string, unknown>) =>
    postJson(joinUrl(config.baseUrl, path), { headers: {}, body: { ...credentials, ...body }, timeoutMs: config.timeoutMs });

  return {
    mode: "live",
    async verifyAccount({ accountNumber, routingNumber }): Promise<ProviderOutcome<AccountVerification>> {
      const outcome = await post(PLAID_AUTH_PATH, { account_number: accountNumber, routing_number: routingNumber });
      const failure = failureOf(outcome, config.timeoutMs);
      if (failure) return failure;
      const parsed = authResponse.safeParse(outcome.kind === "response" ? outcome.body : null);
      if (!parsed.success) return badResponse();
      const [account] = parsed.data.accounts;
      if (!account) return rejected("account_not_found", "Plaid found no account with these numbers");
      const status = account.verification_status;
      const method = status ? VERIFIED_STATUSES[status] : INSTANT_AUTH;
      if (!method) return rejected("not_verified", `Plaid reports the account as ${status}`);
      return {
        ok: true,
        value: {
          accountId: account.account_id,
          verificationMethod: method,
          accountMask: account.mask ?? accountNumber.slice(-4),
          requestId: parsed.data.request_id,
        },
      };
    },

    async checkBalance(accountId): Promise<ProviderOutcome<AccountBalance>> {
      const outcome = await post(PLAID_BALANCE_PATH, { options: { account_ids: [accountId] } });
      const failure = failureOf(outcome, config.timeoutMs);
      if (failure) return failure;
      const parsed = balanceResponse.safeParse(outcome.kind === "response" ? outcome.body : null);
      if (!parsed.success) return badResponse();
      const account = parsed.data.accounts.find((candidate) => candidate.account_id === accountId);
      if (!account) return rejected("invalid_account_id", "The account ID is not known to the account-data provider");
      const available = toMinor(account.balances.available);
      const current = toMinor(account.balances.current);
      if (!available.ok || !current.ok) return badResponse();
      return {
        ok: true,
        value: {
          accountId,
          availableMinor: available.value,
          currentMinor: current.value,
          currency: account.balances.iso_currency_code ?? null,
          requestId: parsed.data.request_id,
        },
      };
    },
  };
}
