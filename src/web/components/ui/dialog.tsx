import { Dialog as HeadlessDialog, DialogPanel, DialogTitle, Description } from "@headlessui/react";
import type { ReactNode } from "react";

/** A modal dialog with a focus trap, Escape to close and a labelled title (Headless UI). */
export function Dialog({ open, onClose, title, description, children, wide = false }: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
        <DialogPanel className={`w-full ${wide ? "max-w-3xl" : "max-w-lg"} min-w-0 rounded-lg bg-white p-4 shadow-xl sm:p-6`}>
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          {description && <Description className="mt-1 text-sm text-slate-600">{description}</Description>}
          <div className="mt-4">{children}</div>
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}
