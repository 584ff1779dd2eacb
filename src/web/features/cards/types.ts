/** The shapes this screen reads from /api/cards and /api/cards/funding-sources, and its form options. */
import type { CardDto as CardItem, FundingSourceDto as FundingSourceItem } from "../../../server/features/cards/service.ts";
export type { CardItem, FundingSourceItem };
import type { FundingConfirmation } from "../../../server/features/cards/card_funding.ts";
export type { FundingConfirmation };

/** The API's page-size limit: the screen shows and offers every card up to it. */
export const CARDS_KEY = "/api/cards?limit=500";
export const FUNDING_SOURCES_KEY = "/api/cards/funding-sources";

export const CARD_TYPE_OPTIONS = [
  { value: "prepaid", label: "Prepaid" },
  { value: "debit", label: "Debit" },
  { value: "credit", label: "Credit" },
] as const;
export const DISTRIBUTION_CARD_TYPE_OPTIONS = CARD_TYPE_OPTIONS.filter((option) => option.value !== "credit");
export const CARD_BRAND_OPTIONS = [
  { value: "visa", label: "Visa" },
  { value: "soln_bank", label: "Soln Bank" },
] as const;
export const DISTRIBUTION_METHOD_OPTIONS = [
  { value: "digital", label: "Digital" },
  { value: "physical", label: "Physical" },
  { value: "pickup", label: "Pickup" },
] as const;
export const FUNDING_SOURCE_OPTIONS = [
  { value: "central_bank_treasury", label: "Central Bank Treasury" },
  { value: "settlement_source", label: "Settlement Source" },
  { value: "operating_account", label: "Operating Account" },
] as const;
