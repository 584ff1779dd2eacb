/** A money amount typed in major units: a number input that steps by cents and brings up a decimal keypad. */
import type { ComponentProps } from "react";
import { TextField } from "./ui/form.tsx";

/** Amounts carry two decimals, so the arrows step by one cent. */
const CENT_STEP = "0.01";

export function AmountField(props: Omit<ComponentProps<typeof TextField>, "type" | "step" | "inputMode">) {
  return <TextField type="number" step={CENT_STEP} inputMode="decimal" {...props} />;
}
