import type { ReactNode } from "react";

const VARIANTS = {
  default: "border-transparent bg-blue-800 text-white",
  secondary: "border-transparent bg-slate-100 text-slate-900",
  destructive: "border-transparent bg-red-700 text-white",
  outline: "border-slate-300 text-slate-800",
} as const;

export type BadgeVariant = keyof typeof VARIANTS;

export function Badge({ variant = "default", className = "", title, children }: {
  variant?: BadgeVariant;
  className?: string;
  /** More than the badge says, on hover; say it in the children too (sr-only) for those who cannot hover. */
  title?: string;
  children: ReactNode;
}) {
  return (
    <span title={title} className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${VARIANTS[variant]} ${className}`}>
      {children}
    </span>
  );
}

/**
 * Spec 4: active default style with green text, pending secondary style with warning text,
 * suspended destructive style with error text, anything else outline style with gray text.
 * The colours are complete class sets (not overrides), so no two background utilities compete.
 */
const STATUS_CLASSES: Record<string, string> = {
  active: "border-transparent bg-green-50 text-green-800",
  pending: "border-transparent bg-slate-100 text-amber-800",
  suspended: "border-transparent bg-red-50 text-red-800",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[status] ?? "border-slate-300 text-slate-700"}`}>
      {status}
    </span>
  );
}
