/**
 * How a stored code reads for people, shared by the screens and the PDF reports so that a value
 * looks the same on paper as on screen.
 *
 * @module
 */

/** "credit_union" → "Credit Union"; "status_change" → "Status Change". */
export function titleCase(value: string): string {
  return value.split("_").filter(Boolean).map((word) => word[0].toUpperCase() + word.slice(1)).join(" ");
}
