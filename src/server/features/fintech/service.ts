/**
 * Fintech operations: account verification and balance checks through the account-data provider,
 * direct transfers and push payments through the card network. The service validates values with
 * the domain's rules, calls the active adapter outside any transaction (a provider may take
 * seconds), and audits each operation twice: "requested" before the call, so an attempt is on
 * record even if the process dies during it, and its outcome after. Card and account numbers
 * are masked in every response, audit row and log line.
 */
import { maskCardNumber, maskCardNumbersInText } from "../../../domain/card.ts";
import {
  maskAccountNumber,
  parseProviderAmount,
  validateBankAccountNumber,
  validateCardNumber,
  validateCurrency,
  validateRoutingNumber,
} from "../../../domain/fintech.ts";
import { formatMoney, type Minor } from "../../../domain/money.ts";
import type { Result } from "../../../domain/result.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";
import type { FintechProviders } from "./provider_config.ts";
import type { ProviderFailure, ProviderMode, ProviderOutcome } from "./providers.ts";
import {
  type CheckBalanceInput,
  DEFAULT_MERCHANT_NAME,
  type DirectTransferInput,
  type PushPaymentInput,
  type VerifyAccountInput,
} from "./schemas.ts";

export const FINTECH_AUDIT_ENTITY = "fintech_operation";
/** Below this length a value is too short to be recognisable in a message, so it is not searched for. */
const MIN_REDACTED_LENGTH = 4;

type ProviderName = "plaid" | "visa";

export interface ProviderStatus {
  name: string;
  status: "operational";
  authority: string;
  capabilities: string[];
  mode: ProviderMode;
}

/** Digits-only account references are bank account numbers and are masked; opaque ids are not secret. */
function maskAccountReference(accountId: string): string {
  return /^\d+$/.test(accountId) ? maskAccountNumber(accountId) : accountId;
}

/** Replaces each sensitive value by its masked form, then masks any other card number, in a provider's message. */
function redact(message: string, sensitive: Array<[raw: string, masked: string]>): string {
  let text = message;
  for (const [raw, masked] of sensitive) {
    if (raw.length >= MIN_REDACTED_LENGTH) text = text.split(raw).join(masked);
  }
  return maskCardNumbersInText(text);
}

/** Validates several fields at once, so a form learns every problem in one answer. */
function validated<T extends Record<string, Result<unknown>>>(
  results: T,
): { [K in keyof T]: T[K] extends Result<infer V> ? V : never } {
  const fields: Record<string, string> = {};
  let reason: string | null = null;
  const values: Record<string, unknown> = {};
  for (const [key, result] of Object.entries(results)) {
    if (result.ok) {
      values[key] = result.value;
    } else {
      fields[result.error.field ?? key] ??= result.error.message;
      reason ??= result.error.code;
    }
  }
  if (reason !== null) {
    const summary = Object.entries(fields).map(([field, message]) => `${field}: ${message}`).join("; ");
    throw new AppError("validation", summary, { fields, extra: { reason } });
  }
  return values as { [K in keyof T]: T[K] extends Result<infer V> ? V : never };
}

function toAppError(provider: ProviderName, failure: ProviderFailure): AppError {
  return new AppError(failure.kind === "rejected" ? "unprocessable" : "bad_gateway", failure.message, {
    extra: { reason: failure.reason, provider },
  });
}

const money = (minor: Minor | null) => (minor === null ? null : formatMoney(minor));

/** What every operation needs: the database for its audit rows and the active provider adapters. */
interface FintechContext {
  db: Database;
  providers: FintechProviders;
}

/**
 * Runs one provider call between its two audit rows. `request` and `describe` must already be
 * masked; `sensitive` pairs the raw values to strip from the provider's messages with their masks.
 */
async function operation<T>(
  ctx: FintechContext,
  actor: Actor,
  op: {
    provider: ProviderName;
    action: string;
    request: Record<string, unknown>;
    sensitive: Array<[raw: string, masked: string]>;
    call: () => Promise<ProviderOutcome<T>>;
    describe: (value: T) => Record<string, unknown>;
  },
): Promise<{ operationId: string; value: T }> {
  const { provider, action, request } = op;
  const operationId = crypto.randomUUID();
  const mode = ctx.providers[provider].mode;
  const audit = (changes: Record<string, unknown>) =>
    ctx.db.transaction((tx) =>
      recordAudit(tx, actor, {
        entityType: FINTECH_AUDIT_ENTITY,
        entityId: operationId,
        action,
        changes: { provider, mode, request, ...changes },
      })
    );
  await audit({ outcome: "requested" });
  const outcome = await op.call();
  if (outcome.ok) {
    await audit({ outcome: "succeeded", result: op.describe(outcome.value) });
    return { operationId, value: outcome.value };
  }
  const failure = { ...outcome.failure, message: redact(outcome.failure.message, op.sensitive) };
  await audit({ outcome: failure.kind, failure });
  if (failure.kind === "unavailable") {
    console.warn(`fintech ${provider} ${action} ${operationId}: ${failure.reason}: ${failure.message}`);
  }
  throw toAppError(provider, failure);
}

async function pushFunds(
  ctx: FintechContext,
  actor: Actor,
  action: "visa_direct_transfer" | "visa_push_payment",
  input: { cardNumber: string; amount: string | number; currency: string; field: string },
  extra: { senderAccountId: string | null; merchantName: string },
) {
  const { card, currency } = validated({
    card: validateCardNumber(input.cardNumber, input.field),
    currency: validateCurrency(input.currency),
  });
  const { amount } = validated({ amount: parseProviderAmount(input.amount, currency) });
  const maskedCard = maskCardNumber(card);
  const request = {
    [input.field]: maskedCard,
    amount: formatMoney(amount),
    currency: currency.code,
    ...(extra.senderAccountId ? { accountId: maskAccountReference(extra.senderAccountId) } : {}),
    merchantName: extra.merchantName,
  };
  const { operationId, value } = await operation(ctx, actor, {
    provider: "visa",
    action,
    request,
    sensitive: [
      [card, maskedCard],
      ...(extra.senderAccountId
        ? [[extra.senderAccountId, maskAccountReference(extra.senderAccountId)] as [string, string]]
        : []),
    ],
    call: () =>
      ctx.providers.visa.pushFunds({
        purpose: action === "visa_direct_transfer" ? "disbursement" : "merchant_payment",
        recipientCardNumber: card,
        amountMinor: amount,
        currency,
        senderAccountId: extra.senderAccountId,
        merchantName: extra.merchantName,
      }),
    describe: (result) => ({ ...result }),
  });
  return { operationId, result: value, maskedCard, amount: formatMoney(amount), currency: currency.code };
}

function providerStatus(providers: FintechProviders): { plaid: ProviderStatus; visa: ProviderStatus } {
  return {
    plaid: {
      name: "Plaid",
      status: "operational",
      authority: "Account data provider",
      capabilities: ["account_verification", "balance_check"],
      mode: providers.plaid.mode,
    },
    visa: {
      name: "Visa Direct",
      status: "operational",
      authority: "Card payment network",
      capabilities: ["direct_transfer", "push_payment"],
      mode: providers.visa.mode,
    },
  };
}

async function verifyAccount(ctx: FintechContext, actor: Actor, input: VerifyAccountInput) {
  const { accountNumber, routingNumber } = validated({
    accountNumber: validateBankAccountNumber(input.accountNumber),
    routingNumber: validateRoutingNumber(input.routingNumber),
  });
  const request = { accountNumber: maskAccountNumber(accountNumber), routingNumber };
  const { operationId, value } = await operation(ctx, actor, {
    provider: "plaid",
    action: "plaid_verify_account",
    request,
    sensitive: [[accountNumber, maskAccountNumber(accountNumber)]],
    call: () => ctx.providers.plaid.verifyAccount({ accountNumber, routingNumber }),
    describe: (result) => ({ ...result }),
  });
  return {
    operationId,
    verified: true,
    verificationMethod: value.verificationMethod,
    accountId: value.accountId,
    accountMask: `****${value.accountMask.slice(-4)}`,
    routingNumber,
    requestId: value.requestId,
    provider: "plaid",
    mode: ctx.providers.plaid.mode,
    verifiedAt: new Date().toISOString(),
  };
}

async function checkBalance(ctx: FintechContext, actor: Actor, input: CheckBalanceInput) {
  const { operationId, value } = await operation(ctx, actor, {
    provider: "plaid",
    action: "plaid_check_balance",
    request: { accountId: maskAccountReference(input.accountId) },
    sensitive: [[input.accountId, maskAccountReference(input.accountId)]],
    call: () => ctx.providers.plaid.checkBalance(input.accountId),
    describe: (result) => ({
      available: money(result.availableMinor),
      current: money(result.currentMinor),
      currency: result.currency,
      requestId: result.requestId,
    }),
  });
  return {
    operationId,
    accountId: maskAccountReference(value.accountId),
    available: money(value.availableMinor),
    current: money(value.currentMinor),
    currency: value.currency,
    requestId: value.requestId,
    provider: "plaid",
    mode: ctx.providers.plaid.mode,
    retrievedAt: new Date().toISOString(),
  };
}

async function directTransfer(ctx: FintechContext, actor: Actor, input: DirectTransferInput) {
  const done = await pushFunds(ctx, actor, "visa_direct_transfer", {
    cardNumber: input.recipientCard,
    amount: input.amount,
    currency: input.currency,
    field: "recipientCard",
  }, { senderAccountId: null, merchantName: DEFAULT_MERCHANT_NAME });
  return {
    operationId: done.operationId,
    transferId: done.result.transactionId,
    status: "completed",
    amount: done.amount,
    currency: done.currency,
    recipientCard: done.maskedCard,
    approvalCode: done.result.approvalCode,
    actionCode: done.result.actionCode,
    provider: "visa",
    mode: ctx.providers.visa.mode,
    processedAt: new Date().toISOString(),
  };
}

async function pushPayment(ctx: FintechContext, actor: Actor, input: PushPaymentInput) {
  const done = await pushFunds(ctx, actor, "visa_push_payment", {
    cardNumber: input.cardNumber,
    amount: input.amount,
    currency: input.currency,
    field: "cardNumber",
  }, { senderAccountId: input.accountId, merchantName: input.merchantInfo });
  return {
    operationId: done.operationId,
    paymentId: done.result.transactionId,
    authCode: done.result.approvalCode,
    status: "approved",
    amount: done.amount,
    currency: done.currency,
    cardNumber: done.maskedCard,
    accountId: maskAccountReference(input.accountId),
    merchantInfo: { name: input.merchantInfo },
    actionCode: done.result.actionCode,
    provider: "visa",
    mode: ctx.providers.visa.mode,
    processedAt: new Date().toISOString(),
  };
}

export function createFintechService(db: Database, providers: FintechProviders) {
  const ctx: FintechContext = { db, providers };
  return {
    status: () => providerStatus(providers),
    verifyAccount: (actor: Actor, input: VerifyAccountInput) => verifyAccount(ctx, actor, input),
    checkBalance: (actor: Actor, input: CheckBalanceInput) => checkBalance(ctx, actor, input),
    directTransfer: (actor: Actor, input: DirectTransferInput) => directTransfer(ctx, actor, input),
    pushPayment: (actor: Actor, input: PushPaymentInput) => pushPayment(ctx, actor, input),
  };
}
