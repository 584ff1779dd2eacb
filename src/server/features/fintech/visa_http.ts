/**
 * Visa Direct over HTTPS with mutual TLS, modelled on the Funds Transfer API's push funds
 * transaction. Both console operations are pushes to a card; they differ in businessApplicationId
 * (FD funds disbursement for transfers, MP merchant payment for push payments).
 *
 *   POST {base}/visadirect/fundstransfer/v1/pushfundstransactions
 *   Authorization: Basic base64(VISA_USER_ID:VISA_PASSWORD); client certificate VISA_CERT_FILE/VISA_KEY_FILE
 *   {systemsTraceAuditNumber, retrievalReferenceNumber, localTransactionDateTime, acquiringBin,
 *    acquirerCountryCode, businessApplicationId, transactionCurrencyCode, amount, recipientPrimaryAccountNumber,
 *    senderAccountNumber?, sourceOfFundsCode, cardAcceptor: {name, terminalId, idCode, address: {country}}}
 *     200 {transactionIdentifier, actionCode, approvalCode, ...}: approved when actionCode is "00"
 *   errors: 4xx/5xx {responseStatus: {status, code, severity, message, info}}
 */
import { Buffer } from "node:buffer";
import { z } from "zod";
import { formatMoney } from "../../../domain/money.ts";
import { joinUrl, postJson } from "./http.ts";
import {
  type CardNetworkProvider,
  type ProviderOutcome,
  type PushFundsPurpose,
  type PushFundsRequest,
  type PushFundsResult,
  rejected,
  unavailable,
} from "./providers.ts";

export const VISA_PUSH_FUNDS_PATH = "/visadirect/fundstransfer/v1/pushfundstransactions";
/** ISO 3166 numeric for the United States, Visa's acquirerCountryCode format. */
const ACQUIRER_COUNTRY_CODE = "840";
const CARD_ACCEPTOR_COUNTRY = "USA";
const CARD_ACCEPTOR_TERMINAL_ID = "CBCONSOL";
const CARD_ACCEPTOR_ID_CODE = "CBCONSOLE000001";
/** 05: deposit account, the source of funds for a central bank's pushes. */
const SOURCE_OF_FUNDS_CODE = "05";
export const APPROVED_ACTION_CODE = "00";
const STAN_DIGITS = 6;
const MAX_ERROR_MESSAGE_LENGTH = 300;

const BUSINESS_APPLICATION_IDS: Readonly<Record<PushFundsPurpose, string>> = {
  disbursement: "FD",
  merchant_payment: "MP",
};

export interface VisaHttpConfig {
  baseUrl: string;
  userId: string;
  password: string;
  acquiringBin: string;
  timeoutMs: number;
  /** Carries the client certificate; absent only against a test double. */
  client?: Deno.HttpClient;
}

const pushResponse = z.object({
  transactionIdentifier: z.union([z.number(), z.string()]),
  actionCode: z.string(),
  approvalCode: z.string().nullish(),
});

const visaError = z.object({
  responseStatus: z.object({ status: z.number().optional(), code: z.string(), message: z.string().nullish() }),
});

const pad = (value: number, length: number) => String(value).padStart(length, "0");

/** Visa's 12-character retrieval reference: last digit of the year, day of year, hour, then the STAN. */
function retrievalReference(now: Date, stan: string): string {
  const startOfYear = Date.UTC(now.getUTCFullYear(), 0, 1);
  const dayOfYear = Math.floor((now.getTime() - startOfYear) / 86_400_000) + 1;
  return `${now.getUTCFullYear() % 10}${pad(dayOfYear, 3)}${pad(now.getUTCHours(), 2)}${stan}`;
}

function randomStan(): string {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return pad(value % 10 ** STAN_DIGITS, STAN_DIGITS);
}

export function pushFundsBody(request: PushFundsRequest, acquiringBin: string, now = new Date()) {
  const stan = randomStan();
  return {
    systemsTraceAuditNumber: Number(stan),
    retrievalReferenceNumber: retrievalReference(now, stan),
    localTransactionDateTime: now.toISOString().slice(0, 19),
    acquiringBin,
    acquirerCountryCode: ACQUIRER_COUNTRY_CODE,
    businessApplicationId: BUSINESS_APPLICATION_IDS[request.purpose],
    transactionCurrencyCode: request.currency.code,
    // A JSON number: amounts have at most 2 decimals and 11 significant digits, so the shortest
    // float form of Number(...) is exactly this decimal.
    amount: Number(formatMoney(request.amountMinor)),
    recipientPrimaryAccountNumber: request.recipientCardNumber,
    ...(request.senderAccountId ? { senderAccountNumber: request.senderAccountId } : {}),
    sourceOfFundsCode: SOURCE_OF_FUNDS_CODE,
    cardAcceptor: {
      name: request.merchantName,
      terminalId: CARD_ACCEPTOR_TERMINAL_ID,
      idCode: CARD_ACCEPTOR_ID_CODE,
      address: { country: CARD_ACCEPTOR_COUNTRY },
    },
  };
}

export function createVisaHttp(config: VisaHttpConfig): CardNetworkProvider {
  const authorization = `Basic ${Buffer.from(`${config.userId}:${config.password}`).toString("base64")}`;
  return {
    mode: "live",
    async pushFunds(request): Promise<ProviderOutcome<PushFundsResult>> {
      const outcome = await postJson(joinUrl(config.baseUrl, VISA_PUSH_FUNDS_PATH), {
        headers: { authorization },
        body: pushFundsBody(request, config.acquiringBin),
        timeoutMs: config.timeoutMs,
        client: config.client,
      });
      if (outcome.kind === "timeout") {
        return unavailable("provider_timeout", `Visa did not answer within ${config.timeoutMs} ms`);
      }
      if (outcome.kind === "network") return unavailable("provider_unreachable", "Visa could not be reached");
      if (outcome.status === 401 || outcome.status === 403) {
        return unavailable("provider_auth_failed", "Visa refused the configured credentials");
      }
      if (outcome.status < 200 || outcome.status >= 300) {
        const error = visaError.safeParse(outcome.body);
        if (outcome.status >= 500 || outcome.status === 429 || !error.success) {
          return unavailable("provider_error", `Visa answered HTTP ${outcome.status}`);
        }
        const { code, message } = error.data.responseStatus;
        return rejected(`visa_${code}`, (message || `Visa error ${code}`).slice(0, MAX_ERROR_MESSAGE_LENGTH));
      }
      const parsed = pushResponse.safeParse(outcome.body);
      if (!parsed.success) return unavailable("provider_bad_response", "Visa's answer could not be read");
      const { transactionIdentifier, actionCode, approvalCode } = parsed.data;
      if (actionCode !== APPROVED_ACTION_CODE) {
        return rejected(`declined_${actionCode}`, `Visa declined the transaction (action code ${actionCode})`);
      }
      if (!approvalCode) return unavailable("provider_bad_response", "Visa approved without an approval code");
      return { ok: true, value: { transactionId: String(transactionIdentifier), approvalCode, actionCode } };
    },
  };
}
