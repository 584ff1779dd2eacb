/**
 * Built-in stand-in for Visa Direct when no credentials are configured. It decides what the
 * network decides once the request is well formed: only Visa cards receive pushed funds, and a
 * single push is capped. Approvals carry a 15-digit transaction identifier and a 6-character
 * approval code like Visa's; nothing is moved anywhere.
 */
import { isVisaCardNumber } from "../../../domain/fintech.ts";
import { formatMoney } from "../../../domain/money.ts";
import type { CardNetworkProvider, PushFundsResult, ProviderOutcome } from "./providers.ts";
import { rejected } from "./providers.ts";
import { APPROVED_ACTION_CODE } from "./visa_http.ts";

/** 100,000.00 per push, the sandbox's stand-in for a program's per-transaction limit. */
export const SANDBOX_MAX_PUSH_AMOUNT_MINOR = 10_000_000n;
const TRANSACTION_ID_DIGITS = 15;
const APPROVAL_CODE_LENGTH = 6;
const APPROVAL_CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function randomFrom(alphabet: string, length: number): string {
  // Bytes at or above the largest multiple of the alphabet size are redrawn, so no character is favoured.
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function createVisaSandbox(): CardNetworkProvider {
  return {
    mode: "sandbox",
    pushFunds(request): Promise<ProviderOutcome<PushFundsResult>> {
      if (!isVisaCardNumber(request.recipientCardNumber)) {
        return Promise.resolve(rejected("card_not_eligible", "Visa Direct pushes funds to Visa cards only"));
      }
      if (request.amountMinor > SANDBOX_MAX_PUSH_AMOUNT_MINOR) {
        return Promise.resolve(
          rejected(
            "amount_limit_exceeded",
            `Amount exceeds the per-transaction limit of ${formatMoney(SANDBOX_MAX_PUSH_AMOUNT_MINOR)}`,
          ),
        );
      }
      return Promise.resolve({
        ok: true,
        value: {
          transactionId: randomFrom("123456789", 1) + randomFrom("0123456789", TRANSACTION_ID_DIGITS - 1),
          approvalCode: randomFrom(APPROVAL_CODE_ALPHABET, APPROVAL_CODE_LENGTH),
          actionCode: APPROVED_ACTION_CODE,
        },
      });
    },
  };
}
