/** One provider service of the fintech screen: a card with its form, its submit button for those allowed, and its result. */
import type { ReactNode } from "react";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import type { ToastInput } from "../../lib/toast.ts";

export function ServiceCard({ title, description, path, onSubmit, submitLabel, pendingLabel, isPending, result, children }: {
  title: string;
  description: ReactNode;
  /** The POST route the submit button needs. */
  path: string;
  onSubmit: () => void;
  submitLabel: string;
  pendingLabel: string;
  isPending: boolean;
  result?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {children}
          <IfAllowed method="POST" path={path}>
            <Button type="submit" disabled={isPending}>{isPending ? pendingLabel : submitLabel}</Button>
          </IfAllowed>
        </form>
        {result}
      </CardContent>
    </Card>
  );
}

/** The toast of a form submitted without what it needs. */
export function missing(description: string, title = "Missing Information"): ToastInput {
  return { title, description, variant: "destructive" };
}
