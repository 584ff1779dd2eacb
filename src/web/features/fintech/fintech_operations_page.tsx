/**
 * Spec 2.11: provider status cards and two tabs, account-data services and card payment services.
 * This screen does not run the login check (src/web/lib/auth_guard.ts); an unauthorized answer to
 * one of its calls still sends the user to sign-in.
 */
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { AccountDataServices } from "./account_data_services.tsx";
import { CardPaymentServices } from "./card_payment_services.tsx";
import { ProviderStatusCards } from "./provider_status_cards.tsx";

export default function FintechOperationsPage() {
  return (
    <>
      <PageHeader title="Fintech Operations" subtitle="Account-data and card payment services for central bank operations" />
      <div className="space-y-6">
        <ProviderStatusCards />
        <Tabs
          label="Fintech services"
          tabs={[
            { id: "account-data", label: "Account Data Services", content: <AccountDataServices /> },
            { id: "card-payments", label: "Card Payment Services", content: <CardPaymentServices /> },
          ]}
        />
      </div>
    </>
  );
}
