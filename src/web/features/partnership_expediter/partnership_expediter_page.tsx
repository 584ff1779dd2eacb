/**
 * Spec 2.13: the SWIFT, Visa and Executive Escalation expeditions. Each tab's button records an
 * expedition request (POST /api/expedition-requests) and, once it is recorded, shows the spec's
 * confirmation "Expedition Request Initiated"; the requests are listed below the tabs. The account
 * data services card shows the account-data provider's real state (Sandbox until a live provider is
 * configured). The partnership statuses, checklists, service-request numbers, contacts and timelines
 * are the partnerships' reference content.
 */
import { useState } from "react";
import {
  EXPEDITION_METHODS,
  EXPEDITION_PARTNER_NAMES,
  expeditionConfirmation,
  type ExpeditionPartner,
  MAX_JUSTIFICATION_LENGTH,
} from "../../../domain/expedition.ts";
import type { ProviderHealth } from "../../../domain/fintech.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { ProviderHealthBadge } from "../../components/provider_health_badge.tsx";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useAccountDataProvider, useFileExpedition } from "./api.ts";
import { ExpeditionRequestsTable } from "./expedition_requests_table.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge, type BadgeVariant } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle, TitledCard } from "../../components/ui/card.tsx";
import { SelectField, TextAreaField } from "../../components/ui/form.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { Tabs } from "../../components/ui/tabs.tsx";
import { useToast } from "../../lib/toast.ts";

type PartnershipStatus =
  | "Awaiting Correspondent Documentation"
  | "Documentation Phase"
  | "Under Review";

/** Light badges build on the secondary variant and the dark one on the default, so either colour class keeps the contrast. */
const STATUS_STYLES: Record<PartnershipStatus, { variant: BadgeVariant; className: string }> = {
  "Awaiting Correspondent Documentation": { variant: "secondary", className: "bg-amber-100 text-amber-900" },
  "Documentation Phase": { variant: "secondary", className: "bg-blue-100 text-blue-900" },
  "Under Review": { variant: "secondary", className: "" },
};

function PartnershipBadge({ status }: { status: PartnershipStatus }) {
  const style = STATUS_STYLES[status];
  return <Badge variant={style.variant} className={style.className}>{status}</Badge>;
}

/** Section 9's expected timelines. */
const TIMELINES = [
  { label: "Executive response", value: "24-48 hours" },
  { label: "Priority review", value: "3-5 business days" },
  { label: "Accelerated processing", value: "1-2 weeks" },
];

interface ChecklistItem {
  document: string;
  ready: boolean;
}

interface Contact {
  role: string;
  channel: string;
}

interface Expedition {
  id: ExpeditionPartner;
  tabLabel: string;
  title: string;
  description: string;
  status: PartnershipStatus;
  serviceRequest: string;
  checklist: ChecklistItem[];
  contacts: Contact[];
  selectLabel: string;
  actionLabel: string;
}

const EXPEDITIONS: Expedition[] = [
  {
    id: "swift",
    tabLabel: "SWIFT",
    title: "SWIFT Network Membership",
    description: "Central bank onboarding to the SWIFT network as a full member.",
    status: "Documentation Phase",
    serviceRequest: "SR-SWIFT-2024-00847",
    checklist: [
      { document: "Central bank charter and legal mandate", ready: true },
      { document: "Board resolution authorising SWIFT membership", ready: true },
      { document: "KYC Registry entity profile", ready: true },
      { document: "Correspondent banking attestation", ready: false },
      { document: "Customer Security Programme (CSP) self-attestation", ready: false },
    ],
    contacts: [
      { role: "SWIFT Customer Support Centre (24/7)", channel: "Case via swift.com support portal" },
      {
        role: "Relationship Manager, Central Banks & Market Infrastructures",
        channel: "Through the SWIFT account team",
      },
    ],
    selectLabel: "Expedition Method",
    actionLabel: "Expedite SWIFT Membership",
  },
  {
    id: "visa",
    tabLabel: "Visa",
    title: "Visa Direct Partnership",
    description: "Push-payment and card-issuing partnership for the national payment scheme.",
    status: "Under Review",
    serviceRequest: "VISA-PRT-2024-11392",
    checklist: [
      { document: "Principal membership application", ready: true },
      { document: "Settlement account confirmation", ready: true },
      { document: "Anti-money-laundering programme summary", ready: true },
      { document: "PCI DSS attestation of compliance", ready: false },
    ],
    contacts: [
      { role: "Visa Client Services", channel: "Visa Online service request" },
      { role: "Visa Direct Onboarding Team", channel: "Through the regional account executive" },
    ],
    selectLabel: "Priority Level",
    actionLabel: "Expedite Visa Partnership",
  },
  {
    id: "executive",
    tabLabel: "Executive Escalation",
    title: "Executive Escalation",
    description: "Escalation to partner executives when the standard channels stall.",
    status: "Awaiting Correspondent Documentation",
    serviceRequest: "ESC-EXEC-2024-0031",
    checklist: [
      { document: "Governor's letter of request", ready: true },
      { document: "Summary of outstanding partner actions", ready: true },
      { document: "Correspondent bank confirmation letter", ready: false },
    ],
    contacts: [
      { role: "Office of the Governor", channel: "Executive secretariat" },
      { role: "Head of Payment Systems Oversight", channel: "Payment systems department" },
    ],
    selectLabel: "Escalation Type",
    actionLabel: "Submit Executive Escalation",
  },
];

const DASHBOARD: { title: string; status: PartnershipStatus; detail: string }[] = [
  {
    title: "SWIFT Network",
    status: "Awaiting Correspondent Documentation",
    detail: "Service request SR-SWIFT-2024-00847",
  },
  { title: "Visa Direct", status: "Under Review", detail: "Service request VISA-PRT-2024-11392" },
];

function accountDataDetail(health: ProviderHealth, lastCallAt: string | null): string {
  switch (health) {
    case "sandbox":
      return "Answered by the built-in sandbox: no live provider is configured and no money moves";
    case "unverified":
      return "Live provider configured; no call has been made yet";
    case "operational":
      return `Live provider answered its latest call (${formatDateTime(lastCallAt ?? "")})`;
    case "unavailable":
      return `Live provider failed its latest call (${formatDateTime(lastCallAt ?? "")})`;
  }
}

/** The third status card: what the console knows of the account-data provider, never a fixed "Operational". */
function AccountDataCard() {
  const provider = useAccountDataProvider();
  return (
    <Card data-testid="account-data-services">
      <div className="space-y-2 p-5">
        <h2 className="text-sm font-medium text-slate-600">Account Data Services</h2>
        {provider.data
          ? (
            <>
              <ProviderHealthBadge health={provider.data.status} />
              <p className="text-xs text-slate-600">
                {accountDataDetail(provider.data.status, provider.data.lastCallAt)}
              </p>
            </>
          )
          : provider.isError
          ? <p className="text-xs text-slate-600">Provider status could not be loaded.</p>
          : <Skeleton className="h-10 w-full" />}
      </div>
    </Card>
  );
}

function Checklist({ expedition }: { expedition: Expedition }) {
  const readyCount = expedition.checklist.filter((item) => item.ready).length;
  return (
    <section aria-labelledby={`${expedition.id}-checklist`}>
      <h3 id={`${expedition.id}-checklist`} className="text-sm font-semibold text-slate-900">
        Document Readiness ({readyCount} of {expedition.checklist.length} ready)
      </h3>
      <ul className="mt-2 space-y-1.5">
        {expedition.checklist.map((item) => (
          <li key={item.document} className="flex items-start gap-2 text-sm text-slate-800">
            <span aria-hidden="true" className={item.ready ? "text-green-800" : "text-amber-800"}>
              {item.ready ? "✓" : "○"}
            </span>
            <span>
              {item.document}
              <span className="ml-1 text-xs text-slate-600">
                ({item.ready ? "Ready" : "Outstanding"})
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PartnershipCard({ expedition }: { expedition: Expedition }) {
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>{expedition.title}</CardTitle>
          <PartnershipBadge status={expedition.status} />
        </div>
        <CardDescription>{expedition.description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <p className="text-sm text-slate-800">
          Service request: <span className="font-mono font-semibold">{expedition.serviceRequest}</span>
        </p>
        <Checklist expedition={expedition} />
        <section aria-labelledby={`${expedition.id}-contacts`}>
          <h3 id={`${expedition.id}-contacts`} className="text-sm font-semibold text-slate-900">
            Contacts
          </h3>
          <ul className="mt-2 space-y-1.5">
            {expedition.contacts.map((contact) => (
              <li key={contact.role} className="text-sm">
                <span className="font-medium text-slate-900">{contact.role}</span>
                <span className="block text-xs text-slate-600">{contact.channel}</span>
              </li>
            ))}
          </ul>
        </section>
      </CardContent>
    </Card>
  );
}

function Timelines({ id }: { id: string }) {
  return (
    <section aria-labelledby={`${id}-timelines`}>
      <h3 id={`${id}-timelines`} className="text-sm font-semibold text-slate-900">
        Expected Timelines
      </h3>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-3">
        {TIMELINES.map((timeline) => (
          <div key={timeline.label} className="rounded-md border border-slate-200 p-2">
            <dt className="text-xs text-slate-600">{timeline.label}</dt>
            <dd className="font-medium text-slate-900">{timeline.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function RequestForm({ expedition }: { expedition: Expedition }) {
  const { toast } = useToast();
  const options = EXPEDITION_METHODS[expedition.id];
  const [choice, setChoice] = useState(options[0].value);
  const [justification, setJustification] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const file = useFileExpedition(() => {
    setErrors({});
    setJustification("");
    toast(expeditionConfirmation(expedition.id));
  }, (error) => setErrors(serverFieldErrors(error)));
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        file.mutate({ partner: expedition.id, method: choice, justification });
      }}
    >
      <SelectField
        label={expedition.selectLabel}
        options={options}
        value={choice}
        error={errors.method}
        onChange={(event) => setChoice(event.target.value)}
      />
      <TextAreaField
        label="Justification"
        rows={4}
        required
        maxLength={MAX_JUSTIFICATION_LENGTH}
        placeholder="Why this partnership needs priority handling"
        value={justification}
        error={errors.justification}
        onChange={(event) => setJustification(event.target.value)}
      />
      <Button type="submit" disabled={file.isPending}>{expedition.actionLabel}</Button>
    </form>
  );
}

function RequestCard({ expedition }: { expedition: Expedition }) {
  const partner = EXPEDITION_PARTNER_NAMES[expedition.id];
  return (
    <TitledCard
      title="Request Expedition"
      description={
        <>
          Ask {expedition.id === "executive" ? "partner executives" : partner} to prioritise this partnership.
        </>
      }
      contentClassName="space-y-4"
    >
      <IfAllowed method="POST" path="/api/expedition-requests">
        <RequestForm expedition={expedition} />
      </IfAllowed>
      <Timelines id={expedition.id} />
    </TitledCard>
  );
}

function ExpeditionPanel({ expedition }: { expedition: Expedition }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <PartnershipCard expedition={expedition} />
      <RequestCard expedition={expedition} />
    </div>
  );
}

export default function PartnershipExpediterPage() {
  return (
    <>
      <PageHeader
        title="Partnership Expediter"
        subtitle="Accelerate SWIFT, Visa and executive partnership approvals"
      />
      <div className="mb-6 grid gap-4 md:grid-cols-3">
        {DASHBOARD.map((card) => (
          <Card key={card.title}>
            <div className="space-y-2 p-5">
              <h2 className="text-sm font-medium text-slate-600">{card.title}</h2>
              <PartnershipBadge status={card.status} />
              <p className="text-xs text-slate-600">{card.detail}</p>
            </div>
          </Card>
        ))}
        <AccountDataCard />
      </div>
      <Tabs
        label="Expeditions"
        tabs={EXPEDITIONS.map((expedition) => ({
          id: expedition.id,
          label: expedition.tabLabel,
          content: <ExpeditionPanel expedition={expedition} />,
        }))}
      />
      <div className="mt-6">
        <ExpeditionRequestsTable />
      </div>
    </>
  );
}
