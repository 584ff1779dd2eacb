/** Shapes and choices of the national routing registry screen (server: src/server/features/national_routing). */

export const NATIONAL_ROUTING_KEY = "/api/national-routing";

export type {
  NationalRoutingEntry,
  NationalRoutingListItem,
} from "../../../server/features/national_routing/schemas.ts";

export const INSTITUTION_TYPE_OPTIONS = [
  { value: "central_bank", label: "Central Bank" },
  { value: "commercial_bank", label: "Commercial Bank" },
  { value: "credit_union", label: "Credit Union" },
  { value: "community_association", label: "Community Association" },
] as const;

export const ACCOUNT_NUMBER_FORMAT_OPTIONS = [
  { value: "10-digit", label: "10-digit" },
  { value: "12-digit-checksum", label: "12-digit with checksum" },
  { value: "14-digit-extended", label: "14-digit extended" },
  { value: "iban-compliant", label: "IBAN compliant" },
] as const;

export const CONNECTION_PROTOCOL_OPTIONS = [
  { value: "iso20022", label: "ISO 20022" },
  { value: "swift_mt", label: "SWIFT MT" },
  { value: "ach", label: "ACH" },
  { value: "rtgs", label: "RTGS" },
  { value: "fedwire", label: "Fedwire" },
] as const;

export { labelOf } from "../../lib/format.ts";
