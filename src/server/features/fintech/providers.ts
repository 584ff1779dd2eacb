/**
 * The adapter interfaces of the two external providers. Each has a real HTTP client and a
 * built-in sandbox; the service sees only these interfaces. Inputs reach an adapter already
 * validated (src/domain/fintech.ts), so adapters decide only what the provider itself decides.
 */
import type { CurrencyInfo } from "../../../domain/fintech.ts";
import type { Minor } from "../../../domain/money.ts";

export type ProviderMode = "sandbox" | "live";

/**
 * `rejected`: the provider refused this input (unknown account, declined card): the caller's
 * problem, answered 422. `unavailable`: the provider could not be asked or answered badly
 * (timeout, 5xx, unreadable body, our credentials refused): answered 502.
 */
export interface ProviderFailure {
  kind: "rejected" | "unavailable";
  reason: string;
  message: string;
}

export type ProviderOutcome<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure };

export const rejected = (reason: string, message: string): { ok: false; failure: ProviderFailure } => ({
  ok: false,
  failure: { kind: "rejected", reason, message },
});
export const unavailable = (reason: string, message: string): { ok: false; failure: ProviderFailure } => ({
  ok: false,
  failure: { kind: "unavailable", reason, message },
});

export interface AccountVerification {
  accountId: string;
  /** How the provider verified ownership: instant_auth, database_match, micro_deposits. */
  verificationMethod: string;
  /** The last digits the provider shows, e.g. "6789". */
  accountMask: string;
  requestId: string;
}

export interface AccountBalance {
  accountId: string;
  availableMinor: Minor | null;
  currentMinor: Minor | null;
  currency: string | null;
  requestId: string;
}

export interface AccountDataProvider {
  readonly mode: ProviderMode;
  verifyAccount(input: { accountNumber: string; routingNumber: string }): Promise<ProviderOutcome<AccountVerification>>;
  checkBalance(accountId: string): Promise<ProviderOutcome<AccountBalance>>;
}

/** Visa Direct business application ids: FD funds disbursement, MP merchant payment. */
export type PushFundsPurpose = "disbursement" | "merchant_payment";

export interface PushFundsRequest {
  purpose: PushFundsPurpose;
  recipientCardNumber: string;
  amountMinor: Minor;
  currency: CurrencyInfo;
  /** The sender's account at the originating institution (push payments). */
  senderAccountId: string | null;
  merchantName: string;
}

export interface PushFundsResult {
  transactionId: string;
  approvalCode: string;
  actionCode: string;
}

export interface CardNetworkProvider {
  readonly mode: ProviderMode;
  pushFunds(request: PushFundsRequest): Promise<ProviderOutcome<PushFundsResult>>;
}
