/** Shapes and choices of the central bank connections screen (server: src/server/features/central_bank_connections). */

export const CONNECTIONS_KEY = "/api/central-bank-connections";
export const PARTNER_CONFIG_KEY = "/api/establish-loc-connection/config";
export const ESTABLISH_PARTNER_PATH = "/api/establish-loc-connection";

import type { Connection } from "../../../server/features/central_bank_connections/schemas.ts";
import type { PartnerConfig as ServerPartnerConfig } from "../../../server/features/central_bank_connections/partner_config.ts";

export type { Connection, ConnectionTestResult } from "../../../server/features/central_bank_connections/schemas.ts";

/** What GET /config answers: the partner file without its limit and credentials. */
export type PartnerConfig = Omit<ServerPartnerConfig, "dailySettlementLimit" | "credentialsTemplate">;

export const CONNECTION_TYPE_OPTIONS = [
  { value: "bilateral", label: "Bilateral" },
  { value: "correspondent", label: "Correspondent" },
  { value: "clearing_member", label: "Clearing Member" },
] as const;

export const MESSAGE_STANDARD_OPTIONS = [
  { value: "iso20022", label: "ISO 20022" },
  { value: "swift_mt103", label: "SWIFT MT103" },
  { value: "fedwire", label: "Fedwire" },
  { value: "ach", label: "ACH" },
] as const;

export const AUTHENTICATION_METHOD_OPTIONS = [
  { value: "api_key", label: "API Key" },
  { value: "mutual_tls", label: "Mutual TLS" },
  { value: "oauth2", label: "OAuth 2.0" },
] as const;

export const CURRENCY_OPTIONS = [
  { value: "USD", label: "USD" },
  { value: "EUR", label: "EUR" },
  { value: "GBP", label: "GBP" },
  { value: "JPY", label: "JPY" },
] as const;

/** The spec 2.9 rule: the partner dialog shows while no partner name contains the association's name. */
export function hasPartnerConnection(connections: readonly Connection[], associationName: string): boolean {
  const needle = associationName.toLowerCase();
  return connections.some((connection) => connection.partnerCentralBank.toLowerCase().includes(needle));
}

export { labelOf } from "../../lib/format.ts";
