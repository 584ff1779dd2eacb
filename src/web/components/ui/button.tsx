import type { ButtonHTMLAttributes } from "react";
import { useChangesPaused, useIsChange } from "../../lib/changes_paused.ts";

const VARIANTS = {
  default: "bg-blue-800 text-white hover:bg-blue-900",
  outline: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100",
  secondary: "bg-slate-100 text-slate-900 hover:bg-slate-200",
  destructive: "bg-red-700 text-white hover:bg-red-800",
  ghost: "text-slate-700 hover:bg-slate-100",
} as const;
const SIZES = { default: "h-9 px-4 text-sm", sm: "h-8 px-3 text-xs", icon: "h-9 w-9" } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  /**
   * The button changes something (or opens the form that does): disabled, with the reason, while
   * changes are paused. Without it, the button follows the ChangesScope it sits in.
   */
  changes?: boolean;
}

export function Button(
  { variant = "default", size = "default", className = "", type = "button", changes, disabled, title, ...props }:
    ButtonProps,
) {
  const paused = useChangesPaused();
  const blocked = useIsChange(changes) && paused !== null;
  // A paused button keeps its pointer events, so that hovering it shows why it is disabled.
  const disabledStyle = blocked ? "disabled:cursor-not-allowed" : "disabled:pointer-events-none";
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 focus-visible:ring-offset-2 disabled:opacity-50 ${disabledStyle} ${
        VARIANTS[variant]
      } ${SIZES[size]} ${className}`}
      disabled={blocked || disabled}
      title={blocked ? paused : title}
      {...props}
    />
  );
}
