import type { HTMLAttributes, ReactNode } from "react";

export function Card({ className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`rounded-lg border border-slate-200 bg-white shadow-sm ${className}`} {...props} />;
}

export function CardHeader({ className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`flex flex-col gap-1 p-5 pb-3 ${className}`} {...props} />;
}

export function CardTitle({ children, className = "", as: Tag = "h2" }: { children: ReactNode; className?: string; as?: "h2" | "h3" }) {
  return <Tag className={`text-base font-semibold text-slate-900 ${className}`}>{children}</Tag>;
}

export function CardDescription({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-600">{children}</p>;
}

export function CardContent({ className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`p-5 pt-0 ${className}`} {...props} />;
}

/** A screen's row of counters: two by two on a phone, one row of four from 1024 px up. */
export function StatGrid({ children, className = "", ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4 ${className}`} {...props}>{children}</div>;
}

/** A labelled figure, as on every screen's counter row. */
export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card>
      <div className="p-3 sm:p-5">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="mt-1 text-xl font-semibold text-slate-900 [overflow-wrap:anywhere] sm:text-2xl">{value}</p>
        {hint !== undefined && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
      </div>
    </Card>
  );
}

/** A section of a screen: a card with a title, an optional description, and its content. */
export function TitledCard({ title, description, className, contentClassName, children }: {
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  contentClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description !== undefined && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
