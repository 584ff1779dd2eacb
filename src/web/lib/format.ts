/** Display formatting shared by the screens. */
import { formatCurrencyEnUs, parseMoney } from "../../domain/money.ts";

// The same labels as the PDF reports: one function for screens and server.
export { titleCase } from "../../domain/labels.ts";

/**
 * en-US currency display of an amount ("1250.00" → "$1,250.00", spec section 9): the one money
 * formatter of the screens, in tables, dialogs, toasts and charts. A decimal string from the API is
 * (or minor units summed in the browser) is formatted exactly, never through a float; a JPY fraction is shown rather
 * than rounded away. Numbers come only from charts' scales, which draw floats anyway.
 */
export function formatCurrency(amount: string | bigint | number | null | undefined, currency = "USD"): string {
  const value = amount ?? "0.00";
  if (typeof value === "bigint") return formatCurrencyEnUs(value, currency);
  const parsed = typeof value === "string" ? parseMoney(value) : null;
  if (parsed?.ok) return formatCurrencyEnUs(parsed.value, currency);
  // Intl formats decimal strings exactly too; only a chart's number goes through a float.
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value as Intl.StringNumericLiteral);
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString() : "";
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "";
}

/** The label of a choice's value, the value itself where it is not among the options, "—" for none. */
export function labelOf(options: readonly { value: string; label: string }[], value: string | null): string {
  if (value === null) return "—";
  return options.find((option) => option.value === value)?.label ?? value;
}
