import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

const PINNED_FIRST_COLUMN = "[&_tr>*:first-child]:sticky [&_tr>*:first-child]:left-0 [&_tr>*:first-child]:z-[1] " +
  "[&_tr>*:first-child]:bg-white [&_tbody_tr:hover>*:first-child]:bg-slate-50 " +
  "[&_tr>*:first-child]:shadow-[inset_-1px_0_0_var(--color-slate-200)]";

/**
 * A table that scrolls sideways inside its card when the window is narrower than its columns, its
 * first column (the row's key) pinned as in the DataTable; the scrolling region is focusable and
 * named, so keyboard users can scroll it too.
 */
export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative w-full overflow-x-auto rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
    >
      <table aria-label={label} className={`w-full caption-bottom text-sm ${PINNED_FIRST_COLUMN}`}>{children}</table>
    </div>
  );
}
export const THead = (props: HTMLAttributes<HTMLTableSectionElement>) => <thead className="border-b border-slate-200" {...props} />;
export const TBody = (props: HTMLAttributes<HTMLTableSectionElement>) => <tbody className="divide-y divide-slate-100" {...props} />;
export const Tr = (props: HTMLAttributes<HTMLTableRowElement>) => <tr className="hover:bg-slate-50" {...props} />;
export const Th = ({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th scope="col" className={`h-10 px-3 text-left align-middle text-xs font-semibold uppercase tracking-wide text-slate-600 ${className}`} {...props} />
);
export const Td = ({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={`px-3 py-3 align-middle text-slate-800 ${className}`} {...props} />
);

export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 py-10 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {text && <p className="text-sm text-slate-600">{text}</p>}
      {action}
    </div>
  );
}
