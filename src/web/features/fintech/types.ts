/** The shapes this screen reads from /api/fintech/status, /api/plaid/* and /api/visa/*. */
import { CENTRAL_BANK_MERCHANT_NAME } from "../../../domain/fintech.ts";

import type { ProviderStatus } from "../../../server/features/fintech/service.ts";

export type { ProviderStatus };

export interface FintechStatus {
  plaid: ProviderStatus;
  visa: ProviderStatus;
}

export interface AccountVerification {
  verificationMethod: string;
  accountId: string;
  accountMask: string;
  routingNumber: string;
}

export interface AccountBalance {
  accountId: string;
  available: string | null;
  current: string | null;
  currency: string | null;
}

export interface DirectTransfer {
  transferId: string;
  amount: string;
  currency: string;
  recipientCard: string;
}

export interface PushPayment {
  paymentId: string;
  authCode: string;
  amount: string;
  cardNumber: string;
}

export const FINTECH_STATUS_KEY = "/api/fintech/status";
/** Spec 7: push payments carry a fixed central-bank merchant label. */
export const MERCHANT_LABEL = CENTRAL_BANK_MERCHANT_NAME;
/** Spec 9: Visa Direct transfers are in US dollars, with no selector. */
export const VISA_DIRECT_CURRENCY = "USD";
