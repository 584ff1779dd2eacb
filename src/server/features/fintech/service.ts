/**
 * Fintech operations: account verification and balance checks through the account-data provider,
 * direct transfers and push payments through the card network. The service validates values with
 * the domain's rules, calls the active adapter outside any transaction (a provider may take
 * seconds), and audits each operation twice: "requested" before the call, so an attempt is on
 * record even if the process dies during it, and its outcome after. Card and account numbers
 * are masked in every response, audit row and log line.
 *
 * With an Idempotency-Key the key is claimed in the "requested" transaction and the answer (the
 * provider's result, its refusal, or its failure) kept in the outcome's, so the provider is called
 * once per key: a retry while the call runs answers 409, and afterwards replays the answer.
 */
import { sql } from "drizzle-orm";
import { maskCardNumber, maskCardNumbersInText } from "../../../domain/card.ts";
import {
  maskAccountNumber,
  parseProviderAmount,
  type ProviderCallOutcome,
  type ProviderHealth,
  providerHealth,
  validateBankAccountNumber,
  validateCardNumber,
  validateCurrency,
  validateRoutingNumber,
} from "../../../domain/fintech.ts";
import { formatMoney, type Minor } from "../../../domain/money.ts";
import type { Result } from "../../../domain/result.ts";
import { type Actor, recordAudit } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError } from "../../http/errors.ts";
import {
  type AbandonedClaim,
  type Answer,
  claimKey,
  keepClaimedAnswer,
  type KeyedAnswer,
} from "../../http/idempotency.ts";
import type { Secrets } from "../../secrets.ts";
import type { FintechProviders } from "./provider_config.ts";
import { MAX_PROVIDER_TIMEOUT_MS } from "./provider_env.ts";
import type { ProviderFailure, ProviderMode, ProviderOutcome, PushFundsResult } from "./providers.ts";
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
/**
 * Time to record a provider's answer once the call has ended; a claim older than the longest
 * provider timeout and this is no longer under way.
 */
const OUTCOME_RECORDING_GRACE_MS = 60_000;

type ProviderName = "plaid" | "visa";

export interface ProviderStatus {
  name: string;
  /** Sandbox, or for a live provider what its latest call showed (src/domain/fintech.ts). */
  status: ProviderHealth;
  authority: string;
  capabilities: string[];
  mode: ProviderMode;
  /** When the latest live call's outcome was recorded; null in the sandbox and before any call. */
  lastCallAt: string | null;
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

/** What every operation needs: the database for its audit rows, the provider adapters, the fingerprint key. */
interface FintechContext {
  db: Database;
  providers: FintechProviders;
  secrets: Secrets;
}

/**
 * A claim whose request never recorded the provider's answer (the process stopped, or the database
 * could not be reached, after the call): the money may or may not have moved, and the key says so.
 */
function abandonedClaim(provider: ProviderName): AbandonedClaim {
  return {
    afterMs: MAX_PROVIDER_TIMEOUT_MS + OUTCOME_RECORDING_GRACE_MS,
    answer: (claimedAt) => {
      const error = new AppError(
        "bad_gateway",
        `The outcome of the request sent with this Idempotency-Key at ${claimedAt} is unknown: the ` +
          `provider's answer was never recorded. Check with the provider, and the audit trail (whose ` +
          `"requested" row carries the key), before sending it again.`,
        { extra: { reason: "outcome_unknown", provider } },
      );
      return { status: error.status, body: error.toBody() };
    },
  };
}

/** One provider call: how it is audited, called and answered. */
interface Operation<T> {
  provider: ProviderName;
  action: string;
  /** What the audit rows show of the request; already masked. */
  request: Record<string, unknown>;
  /** The request as the Idempotency-Key's record knows it: secret values as keyed fingerprints. */
  identity: Record<string, unknown>;
  /** Raw values to strip from the provider's messages, with their masks. */
  sensitive: Array<[raw: string, masked: string]>;
  call: () => Promise<ProviderOutcome<T>>;
  describe: (value: T) => Record<string, unknown>;
  /** The 200's body. */
  answer: (operationId: string, value: T) => Record<string, unknown>;
}

/** The answer to a call's outcome (a provider's failure: 422 or 502), with what its audit row records. */
function outcomeOf<T>(op: Operation<T>, operationId: string, outcome: ProviderOutcome<T>) {
  if (outcome.ok) {
    const answer: Answer = { status: 200, body: op.answer(operationId, outcome.value) };
    return { answer, changes: { outcome: "succeeded", result: op.describe(outcome.value) } };
  }
  const failure = { ...outcome.failure, message: redact(outcome.failure.message, op.sensitive) };
  if (failure.kind === "unavailable") {
    console.warn(`fintech ${op.provider} ${op.action} ${operationId}: ${failure.reason}: ${failure.message}`);
  }
  const error = toAppError(op.provider, failure);
  const answer: Answer = { status: error.status, body: error.toBody() };
  return { answer, changes: { outcome: failure.kind, failure } };
}

/**
 * Runs one provider call between its two audit rows, each in its own transaction; with a key, the
 * first also claims the key (or finds the answer to give instead) and the second keeps the answer.
 */
async function operation<T>(
  ctx: FintechContext,
  actor: Actor,
  key: string | null,
  op: Operation<T>,
): Promise<KeyedAnswer> {
  const { provider, action, request } = op;
  const operationId = crypto.randomUUID();
  const mode = ctx.providers[provider].mode;
  const audit = (tx: Tx, changes: Record<string, unknown>) =>
    recordAudit(tx, actor, {
      entityType: FINTECH_AUDIT_ENTITY,
      entityId: operationId,
      action,
      // The key ties the operation to the client's submission when its answer is in doubt.
      changes: { provider, mode, request, ...(key === null ? {} : { idempotencyKey: key }), ...changes },
    });
  const keyed = key === null ? null : { userId: actor.userId, route: action, key, request: op.identity };
  const earlier = await ctx.db.transaction(async (tx) => {
    const kept = keyed === null ? null : await claimKey(tx, keyed, abandonedClaim(provider));
    if (kept === null) await audit(tx, { outcome: "requested" });
    return kept;
  });
  if (earlier !== null) return earlier;
  const { answer, changes } = outcomeOf(op, operationId, await op.call());
  await ctx.db.transaction(async (tx) => {
    await audit(tx, changes);
    if (keyed !== null) await keepClaimedAnswer(tx, keyed.userId, keyed.key, answer);
  });
  return { answer, replayed: false };
}

/** What a push's answer shows: the operation, the network's result, and the request as masked. */
interface PushedFunds {
  operationId: string;
  result: PushFundsResult;
  maskedCard: string;
  amount: string;
  currency: string;
}

/** The values of a push, validated: the card, the currency, the amount in minor units. */
function validatedPush(
  input: { cardNumber: string; amount: string | number; currency: string; field: string },
) {
  const { card, currency } = validated({
    card: validateCardNumber(input.cardNumber, input.field),
    currency: validateCurrency(input.currency),
  });
  const { amount } = validated({ amount: parseProviderAmount(input.amount, currency) });
  return { card, currency, amount };
}

async function pushFunds(
  ctx: FintechContext,
  actor: Actor,
  key: string | null,
  push: {
    action: "visa_direct_transfer" | "visa_push_payment";
    input: { cardNumber: string; amount: string | number; currency: string; field: string };
    senderAccountId: string | null;
    merchantName: string;
    answer: (pushed: PushedFunds) => Record<string, unknown>;
  },
): Promise<KeyedAnswer> {
  const { action, input, senderAccountId, merchantName } = push;
  const { card, currency, amount } = validatedPush(input);
  const maskedCard = maskCardNumber(card);
  const sender = senderAccountId === null
    ? null
    : [senderAccountId, maskAccountReference(senderAccountId)] as const;
  return await operation(ctx, actor, key, {
    provider: "visa",
    action,
    request: {
      [input.field]: maskedCard,
      amount: formatMoney(amount),
      currency: currency.code,
      ...(sender ? { accountId: sender[1] } : {}),
      merchantName,
    },
    identity: {
      card: ctx.secrets.fingerprint(card),
      amount,
      currency: currency.code,
      sender: sender ? ctx.secrets.fingerprint(sender[0]) : null,
      merchantName,
    },
    sensitive: [[card, maskedCard], ...(sender ? [[...sender] as [string, string]] : [])],
    call: () =>
      ctx.providers.visa.pushFunds({
        purpose: action === "visa_direct_transfer" ? "disbursement" : "merchant_payment",
        recipientCardNumber: card,
        amountMinor: amount,
        currency,
        senderAccountId,
        merchantName,
      }),
    describe: (result) => ({ ...result }),
    answer: (operationId, result) =>
      push.answer({ operationId, result, maskedCard, amount: formatMoney(amount), currency: currency.code }),
  });
}

/** The latest recorded outcome of a live call to the provider, from the operations' audit rows. */
async function latestLiveOutcome(db: Queryable, provider: ProviderName) {
  const [row] = await db.all<{ outcome: ProviderCallOutcome; at: string }>(sql`SELECT
    json_extract(changes, '$.outcome') AS outcome, performed_at AS at
    FROM audit_trail WHERE entity_type = ${FINTECH_AUDIT_ENTITY}
      AND json_extract(changes, '$.provider') = ${provider} AND json_extract(changes, '$.mode') = 'live'
      AND json_extract(changes, '$.outcome') IN ('succeeded', 'rejected', 'unavailable')
    ORDER BY seq DESC LIMIT 1`);
  return row ?? null;
}

const PROVIDER_DESCRIPTIONS: Record<
  ProviderName,
  Pick<ProviderStatus, "name" | "authority" | "capabilities">
> = {
  plaid: {
    name: "Plaid",
    authority: "Account data provider",
    capabilities: ["account_verification", "balance_check"],
  },
  visa: {
    name: "Visa Direct",
    authority: "Card payment network",
    capabilities: ["direct_transfer", "push_payment"],
  },
};

async function oneProviderStatus(ctx: FintechContext, provider: ProviderName): Promise<ProviderStatus> {
  const mode = ctx.providers[provider].mode;
  // The sandbox's answers say nothing of a live provider, so its calls are not looked at.
  const latest = mode === "live" ? await latestLiveOutcome(ctx.db.read, provider) : null;
  return {
    ...PROVIDER_DESCRIPTIONS[provider],
    status: providerHealth(mode, latest?.outcome ?? null),
    mode,
    lastCallAt: latest?.at ?? null,
  };
}

async function providerStatus(ctx: FintechContext): Promise<{ plaid: ProviderStatus; visa: ProviderStatus }> {
  return { plaid: await oneProviderStatus(ctx, "plaid"), visa: await oneProviderStatus(ctx, "visa") };
}

async function verifyAccount(
  ctx: FintechContext,
  actor: Actor,
  key: string | null,
  input: VerifyAccountInput,
) {
  const { accountNumber, routingNumber } = validated({
    accountNumber: validateBankAccountNumber(input.accountNumber),
    routingNumber: validateRoutingNumber(input.routingNumber),
  });
  return await operation(ctx, actor, key, {
    provider: "plaid",
    action: "plaid_verify_account",
    request: { accountNumber: maskAccountNumber(accountNumber), routingNumber },
    identity: { accountNumber: ctx.secrets.fingerprint(accountNumber), routingNumber },
    sensitive: [[accountNumber, maskAccountNumber(accountNumber)]],
    call: () => ctx.providers.plaid.verifyAccount({ accountNumber, routingNumber }),
    describe: (result) => ({ ...result }),
    answer: (operationId, value) => ({
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
    }),
  });
}

async function checkBalance(ctx: FintechContext, actor: Actor, key: string | null, input: CheckBalanceInput) {
  return await operation(ctx, actor, key, {
    provider: "plaid",
    action: "plaid_check_balance",
    request: { accountId: maskAccountReference(input.accountId) },
    identity: { accountId: ctx.secrets.fingerprint(input.accountId) },
    sensitive: [[input.accountId, maskAccountReference(input.accountId)]],
    call: () => ctx.providers.plaid.checkBalance(input.accountId),
    describe: (result) => ({
      available: money(result.availableMinor),
      current: money(result.currentMinor),
      currency: result.currency,
      requestId: result.requestId,
    }),
    answer: (operationId, value) => ({
      operationId,
      accountId: maskAccountReference(value.accountId),
      available: money(value.availableMinor),
      current: money(value.currentMinor),
      currency: value.currency,
      requestId: value.requestId,
      provider: "plaid",
      mode: ctx.providers.plaid.mode,
      retrievedAt: new Date().toISOString(),
    }),
  });
}

function directTransfer(ctx: FintechContext, actor: Actor, key: string | null, input: DirectTransferInput) {
  return pushFunds(ctx, actor, key, {
    action: "visa_direct_transfer",
    input: {
      cardNumber: input.recipientCard,
      amount: input.amount,
      currency: input.currency,
      field: "recipientCard",
    },
    senderAccountId: null,
    merchantName: DEFAULT_MERCHANT_NAME,
    answer: (done) => ({
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
    }),
  });
}

function pushPayment(ctx: FintechContext, actor: Actor, key: string | null, input: PushPaymentInput) {
  return pushFunds(ctx, actor, key, {
    action: "visa_push_payment",
    input: {
      cardNumber: input.cardNumber,
      amount: input.amount,
      currency: input.currency,
      field: "cardNumber",
    },
    senderAccountId: input.accountId,
    merchantName: input.merchantInfo,
    answer: (done) => ({
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
    }),
  });
}

/** Each operation takes its Idempotency-Key (or null): the answer is its own, or the one kept under the key. */
export function createFintechService(db: Database, providers: FintechProviders, secrets: Secrets) {
  const ctx: FintechContext = { db, providers, secrets };
  return {
    status: () => providerStatus(ctx),
    verifyAccount: (actor: Actor, key: string | null, input: VerifyAccountInput) =>
      verifyAccount(ctx, actor, key, input),
    checkBalance: (actor: Actor, key: string | null, input: CheckBalanceInput) =>
      checkBalance(ctx, actor, key, input),
    directTransfer: (actor: Actor, key: string | null, input: DirectTransferInput) =>
      directTransfer(ctx, actor, key, input),
    pushPayment: (actor: Actor, key: string | null, input: PushPaymentInput) =>
      pushPayment(ctx, actor, key, input),
  };
}
