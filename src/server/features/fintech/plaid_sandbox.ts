/**
 * Built-in stand-in for Plaid when no credentials are configured. Stateless and deterministic:
 * verifying an account yields an account id derived from its numbers, carrying a check suffix, and
 * only such ids are known to the balance check; any other id is refused as Plaid refuses an
 * unknown account_id (INVALID_ACCOUNT_ID). Balances are derived from the id, so repeated checks agree.
 */
import { createHash } from "node:crypto";
import type { AccountBalance, AccountDataProvider, AccountVerification, ProviderOutcome } from "./providers.ts";
import { rejected } from "./providers.ts";

export const SANDBOX_ACCOUNT_ID_PREFIX = "sbx_";
const ACCOUNT_BODY_HEX = 20;
const ACCOUNT_CHECK_HEX = 4;
const SANDBOX_ACCOUNT_ID = new RegExp(`^${SANDBOX_ACCOUNT_ID_PREFIX}[0-9a-f]{${ACCOUNT_BODY_HEX + ACCOUNT_CHECK_HEX}}$`);
export const SANDBOX_VERIFICATION_METHOD = "instant_auth";
export const SANDBOX_CURRENCY = "USD";
/** Sandbox balances fall between 100.00 and 50,100.00, with up to 10% of it pending. */
const MIN_SANDBOX_BALANCE_MINOR = 10_000n;
const SANDBOX_BALANCE_SPAN_MINOR = 5_000_000n;
const PENDING_SHARE_DIVISOR = 10n;

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

function checkSuffix(body: string): string {
  return sha256Hex(`plaid-sandbox-check|${body}`).slice(0, ACCOUNT_CHECK_HEX);
}

/** The id the sandbox gives the account with these numbers; the same numbers always get the same id. */
export function sandboxAccountId(routingNumber: string, accountNumber: string): string {
  const body = sha256Hex(`plaid-sandbox-account|${routingNumber}|${accountNumber}`).slice(0, ACCOUNT_BODY_HEX);
  return `${SANDBOX_ACCOUNT_ID_PREFIX}${body}${checkSuffix(body)}`;
}

export function isSandboxAccountId(accountId: string): boolean {
  if (!SANDBOX_ACCOUNT_ID.test(accountId)) return false;
  const body = accountId.slice(SANDBOX_ACCOUNT_ID_PREFIX.length, SANDBOX_ACCOUNT_ID_PREFIX.length + ACCOUNT_BODY_HEX);
  return accountId.endsWith(checkSuffix(body));
}

const requestId = () => `sandbox-${crypto.randomUUID()}`;

export function createPlaidSandbox(): AccountDataProvider {
  return {
    mode: "sandbox",
    verifyAccount({ accountNumber, routingNumber }): Promise<ProviderOutcome<AccountVerification>> {
      return Promise.resolve({
        ok: true,
        value: {
          accountId: sandboxAccountId(routingNumber, accountNumber),
          verificationMethod: SANDBOX_VERIFICATION_METHOD,
          accountMask: accountNumber.slice(-4),
          requestId: requestId(),
        },
      });
    },
    checkBalance(accountId): Promise<ProviderOutcome<AccountBalance>> {
      if (!isSandboxAccountId(accountId)) {
        return Promise.resolve(
          rejected("invalid_account_id", "The account ID is not known to the account-data provider"),
        );
      }
      const seed = BigInt(`0x${sha256Hex(`plaid-sandbox-balance|${accountId}`).slice(0, 15)}`);
      const currentMinor = MIN_SANDBOX_BALANCE_MINOR + seed % SANDBOX_BALANCE_SPAN_MINOR;
      const pendingMinor = (seed / SANDBOX_BALANCE_SPAN_MINOR) % (currentMinor / PENDING_SHARE_DIVISOR);
      return Promise.resolve({
        ok: true,
        value: {
          accountId,
          availableMinor: currentMinor - pendingMinor,
          currentMinor,
          currency: SANDBOX_CURRENCY,
          requestId: requestId(),
        },
      });
    },
  };
}
