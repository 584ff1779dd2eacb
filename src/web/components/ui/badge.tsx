import type { ReactNode } from "react";

const VARIANTS = {
  default: "border-transparent bg-blue-800 text-white",
  secondary: "border-transparent bg-slate-100 text-slate-900",
  destructive: "border-transparent bg-red-700 text-white",
  outline: "border-slate-300 text-slate-800",
} as const;

export type BadgeVariant = keyof typeof VARIANTS;

export function Badge({ variant = "default", className = "", children }: { variant?: BadgeVariant; className?: string; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${VARIANTS[variant]} ${className}`}>
      {children}
    </span>
  );
}

/** Spec 4: active default/green, pending secondary/warning, suspended destructive/error, else outline/gray. */
export function StatusBadge({ status }: { status: string }) {
  switch (status) {
    case "active":
      return <Badge variant="default" className="bg-green-800 text-white">{status}</Badge>;
    case "pending":
      return <Badge variant="secondary" className="bg-amber-100 text-amber-900">{status}</Badge>;
    case "suspended":
      return <Badge variant="destructive" className="bg-red-700 text-white">{status}</Badge>;
    default:
      return <Badge variant="outline" className="text-slate-700">{status}</Badge>;
  }
}
