/** Display formatting shared by the screens. */

// The same labels as the PDF reports: one function for screens and server.
export { titleCase } from "../../domain/labels.ts";

/** en-US currency display of a decimal string from the API ("1250.00" → "$1,250.00"). */
export function formatCurrency(amount: string | number | null | undefined, currency = "USD"): string {
  const value = amount ?? "0";
  const formatter = new Intl.NumberFormat("en-US", { style: "currency", currency });
  // Intl formats decimal strings exactly; going through a float would round large amounts.
  return formatter.format(String(value) as unknown as number);
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
