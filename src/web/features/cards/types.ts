/** The shapes this screen reads from /api/cards and /api/cards/funding-sources, and its form options. */
export interface CardItem {
  id: string;
  /** Masked by the server, e.g. "453201******0366"; the full number never reaches the browser. */
  cardNumber: string;
  cardholderName: string;
  cardholderEmail: string | null;
  cardStatus: string;
  cardBrand: string;
  cardType: string;
  distributionMethod: string | null;
  spendingLimit: number | null;
  dailyLimit: number | null;
  currentBalance: string | null;
}

export interface FundingConfirmation {
  amount: string;
  fundingSource: string;
  fundingSourceLabel: string;
  sourceAccountNumber: string;
  cardBalanceAfter: string;
}

export interface FundingSourceItem {
  fundingSource: string;
  label: string;
  accountNumber: string;
  availableBalance: string;
  currency: string;
  accountStatus: string;
}

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
