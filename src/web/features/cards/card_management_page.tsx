/** Spec 2.12: Existing Cards, Issue New Card, Distribute Card, Load Funds, and the Funding Authority panel. */
import { AwaitingApproval } from "../../components/awaiting_approval.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { DistributeCardForm } from "./distribute_card_form.tsx";
import { ExistingCardsTable } from "./existing_cards_table.tsx";
import { FundingAuthorityPanel } from "./funding_authority_panel.tsx";
import { IssueCardForm } from "./issue_card_form.tsx";
import { LoadFundsForm } from "./load_funds_form.tsx";

/** The four-eyes requests this screen makes. */
const CARD_SCREEN_REQUESTS = ["card_issue", "card_distribute", "card_load"] as const;

export default function CardManagementPage() {
  return (
    <>
      <PageHeader title="Card Management" subtitle="Issue, distribute and fund central bank cards" />
      <div className="space-y-6">
        <FundingAuthorityPanel />
        <AwaitingApproval kinds={CARD_SCREEN_REQUESTS} className="" />
        <Tabs
          label="Card management" urlParam="tab"
          tabs={[
            { id: "existing", label: "Existing Cards", content: <Card><CardContent className="pt-5"><ExistingCardsTable /></CardContent></Card> },
            { id: "issue", label: "Issue New Card", content: <Card><CardContent className="pt-5"><IssueCardForm /></CardContent></Card> },
            {
              id: "distribute",
              label: "Distribute Card",
              content: <Card><CardContent className="pt-5"><DistributeCardForm /></CardContent></Card>,
            },
            { id: "load", label: "Load Funds", content: <Card><CardContent className="pt-5"><LoadFundsForm /></CardContent></Card> },
          ]}
        />
      </div>
    </>
  );
}
