import { forbiddenMessage, ruleFor } from "../../../domain/access.ts";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Card } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/table.tsx";

/** A screen the user's roles do not open, reached by its address: its name and whom it is for. */
export default function NotAllowedPage({ title, method, path }: { title: string; method: string; path: string }) {
  const rule = ruleFor(method, path);
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState title="Not available to your role" text={rule ? forbiddenMessage(rule) : undefined} />
      </Card>
    </>
  );
}
