/**
 * A money amount typed in major units, shown with its currency and grouped as one types
 * ("1,200,000.07"). The form keeps the exact decimal string without separators ("1200000.07"), which
 * is what the API receives: never a float, nothing rounded. Keys that would not make an amount (a
 * letter, a third decimal) are not taken.
 */
import { type ChangeEvent, useLayoutEffect, useRef } from "react";
import { groupDigits, MINOR_DIGITS } from "../../domain/money.ts";
import { Field, type FieldProps, inputClassName, useControl } from "./ui/form.tsx";

/** What may stand in the field while typing: digits, then at most one point and two decimals. */
const TYPED_AMOUNT = new RegExp(`^\\d*(\\.\\d{0,${MINOR_DIGITS}})?$`);

/** The typed text without its thousands separators, or null when it would not make an amount. */
function amountOfTyped(typed: string): string | null {
  const bare = typed.replace(/[,\s]/g, "");
  return TYPED_AMOUNT.test(bare) ? bare : null;
}

/** Where the caret goes in `grouped` to stand after `kept` characters that are not separators. */
function caretAfter(grouped: string, kept: number): number {
  let seen = 0;
  for (let index = 0; index < grouped.length; index++) {
    if (seen === kept) return index;
    if (grouped[index] !== ",") seen++;
  }
  return grouped.length;
}

export function AmountField({ label, error, hint, id, value, onChange, currency, placeholder = "0.00", required }:
  FieldProps & {
    id?: string;
    /** The exact decimal string, without separators. */
    value: string;
    onChange: (event: { target: { value: string } }) => void;
    /** The currency the amount is in, shown beside it; none while it is still to be chosen. */
    currency?: string;
    placeholder?: string;
    required?: boolean;
  }) {
  const { fieldId, aria } = useControl(id, error, hint);
  const input = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  const shown = groupDigits(value);
  useLayoutEffect(() => {
    if (caret.current === null || !input.current) return;
    const at = caretAfter(shown, caret.current);
    input.current.setSelectionRange(at, at);
    caret.current = null;
  }, [shown]);
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.target.value;
    const amount = amountOfTyped(typed);
    if (amount === null) return;
    const before = typed.slice(0, event.target.selectionStart ?? typed.length);
    caret.current = before.replace(/[,\s]/g, "").length;
    onChange({ target: { value: amount } });
  };
  const currencyId = `${fieldId}-currency`;
  const describedBy = [currency ? currencyId : null, aria["aria-describedby"]].filter(Boolean).join(" ");
  return (
    <Field id={fieldId} label={label} error={error} hint={hint}>
      <div className="flex items-stretch">
        {currency && (
          <span
            id={currencyId}
            className="inline-flex items-center rounded-l-md border border-r-0 border-slate-300 bg-slate-50 px-3 text-sm font-medium text-slate-700"
          >
            {currency}
          </span>
        )}
        <input
          {...aria}
          ref={input}
          aria-describedby={describedBy || undefined}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          required={required}
          placeholder={placeholder}
          value={shown}
          onChange={change}
          className={`${inputClassName} tabular-nums ${currency ? "rounded-l-none" : ""}`}
        />
      </div>
    </Field>
  );
}
