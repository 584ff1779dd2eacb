/**
 * A completed sweep as an ISO 20022 camt.050.001.05 LiquidityCreditTransferV05 message: the
 * message RTGS systems such as T2 use to move liquidity between two accounts of one participant.
 * The schema is db/reference/iso20022/camt.050.001.05.xsd; the API tests validate every message
 * this module renders against it.
 *
 * Mapping: MsgId, InstrId and EndToEndId = the sweep's transaction reference; UETR = the sweep id
 * (a UUID v4); debtor = source account, creditor = target account, each identified by its account
 * number (Othr/Id), its account type as a proprietary type code, currency and name; the agent's
 * BIC (BICFI) and name when the account is linked to an institution that has them.
 */
import type { MessageAccount, SweepMessageData } from "./queries.ts";
import { formatMoney } from "../../../domain/money.ts";

export const CAMT_050_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:camt.050.001.05";
export const CAMT_050_MESSAGE = "camt.050.001.05";

/** Text lengths of the schema's types Max35Text, Max70Text and Max140Text. */
const MAX_35 = 35;
const MAX_70 = 70;
const MAX_140 = 140;
const BICFI_PATTERN = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const UUID_V4_PATTERN = /^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}$/;
// deno-lint-ignore no-control-regex
const NOT_XML_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&apos;");
}

/**
 * Drops characters XML 1.0 cannot carry and cuts at a code point boundary (the schema counts
 * characters, not UTF-16 units).
 */
function limit(text: string, max: number): string {
  const characters = Array.from(text.replace(NOT_XML_CHARACTERS, "").trim());
  return characters.length <= max ? characters.join("") : characters.slice(0, max).join("");
}

function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

function agent(account: MessageAccount, tag: "Dbtr" | "Cdtr"): string {
  const bic = account.bic !== null && BICFI_PATTERN.test(account.bic) ? account.bic : null;
  const name = account.institutionName ? limit(account.institutionName, MAX_140) : "";
  if (bic === null && name === "") return "";
  const parts = [bic === null ? "" : element("BICFI", bic), name === "" ? "" : element("Nm", name)];
  return `<${tag}><FinInstnId>${parts.join("")}</FinInstnId></${tag}>`;
}

function cashAccount(account: MessageAccount, tag: "DbtrAcct" | "CdtrAcct"): string {
  const name = limit(account.accountName, MAX_70);
  return `<${tag}>` +
    `<Id><Othr>${element("Id", account.accountNumber)}</Othr></Id>` +
    `<Tp>${element("Prtry", limit(account.accountType.toUpperCase(), MAX_35))}</Tp>` +
    element("Ccy", account.currency) +
    (name === "" ? "" : element("Nm", name)) +
    `</${tag}>`;
}

/** Renders the message; throws if the sweep lacks what the schema requires (a broken invariant). */
export function renderCamt050(data: SweepMessageData): string {
  const { sweep, debtor, creditor } = data;
  const reference = sweep.transactionReference;
  if (reference === null || reference.length > MAX_35) {
    throw new Error(`Sweep ${sweep.id} has no transaction reference usable as an ISO 20022 MsgId`);
  }
  const settlementDate = sweep.settlementDate ?? sweep.executedAt.slice(0, 10);
  const transfer = [
    "<LqdtyTrfId>",
    element("InstrId", reference),
    element("EndToEndId", reference),
    UUID_V4_PATTERN.test(sweep.id) ? element("UETR", sweep.id) : "",
    "</LqdtyTrfId>",
    agent(creditor, "Cdtr"),
    cashAccount(creditor, "CdtrAcct"),
    `<TrfdAmt><AmtWthCcy Ccy="${escapeXml(debtor.currency)}">${
      formatMoney(BigInt(sweep.sweepAmountMinor))
    }</AmtWthCcy></TrfdAmt>`,
    agent(debtor, "Dbtr"),
    cashAccount(debtor, "DbtrAcct"),
    element("SttlmDt", settlementDate),
  ].join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<Document xmlns="${CAMT_050_NAMESPACE}">` +
    `<LqdtyCdtTrf>` +
    `<MsgHdr>${element("MsgId", reference)}${element("CreDtTm", sweep.executedAt)}</MsgHdr>` +
    `<LqdtyCdtTrf>${transfer}</LqdtyCdtTrf>` +
    `</LqdtyCdtTrf>` +
    `</Document>\n`;
}

export function camt050FileName(transactionReference: string): string {
  return `${CAMT_050_MESSAGE}-${transactionReference.replace(/[^A-Za-z0-9-]/g, "_")}.xml`;
}
