/**
 * The institution page (/institutions/:id): details (LEI, termination and successor included), the
 * changes still to come, the history of its versions, status history with reasons,
 * routing codes, BICs, the national routing registry entry, ledger accounts and recent audit
 * events, from one call (GET /api/institutions/:id/overview).
 */
import { type ReactNode } from "react";
import { Link, useParams } from "react-router";
import { branchLabel } from "../../../domain/institution.ts";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import { formatCurrency, formatDate, formatDateTime, titleCase } from "../../lib/format.ts";
import { StatusAction } from "./status_action.tsx";
import { EditDetailsAction } from "./edit_details_dialog.tsx";
import { type EndingCodes, TerminateAction } from "./terminate_action.tsx";
import { RegistryHistory, ScheduledChanges } from "./over_time.tsx";
import { useInstitutionOverview } from "./api.ts";
import type { InstitutionOverview as Overview } from "../../../server/features/institutions/overview.ts";
import type { Institution } from "./types.ts";
import { TitledCard } from "../../components/ui/card.tsx";
import { accountColumn, statusColumn } from "../../components/columns.tsx";

type Row<K extends keyof Overview> = Overview[K] extends readonly (infer T)[] ? T : never;

const CODE_COLUMNS: ColumnDef<Row<"routingCodes">>[] = [
  { accessorKey: "code", header: "Routing Code", meta: { cellClassName: "font-mono" } },
  { accessorKey: "branchCode", header: "Branch Code", cell: ({ row }) => row.original.branchCode ?? "—" },
  statusColumn("status"),
  { accessorKey: "createdAt", header: "Created", cell: ({ row }) => formatDate(row.original.createdAt) },
];

const BIC_COLUMNS: ColumnDef<Row<"bicCodes">>[] = [
  { accessorKey: "bicCode", header: "BIC Code", meta: { cellClassName: "font-mono" } },
  {
    id: "membership",
    header: "Membership",
    accessorFn: (bic) => (bic.membershipType ? titleCase(bic.membershipType) : "Standard"),
  },
  statusColumn("status"),
  {
    id: "validUntil",
    header: "Valid Until",
    accessorFn: (bic) => bic.validUntil ?? "9999",
    cell: ({ row }) => (row.original.validUntil ? formatDate(row.original.validUntil) : "Indefinite"),
  },
];

const ACCOUNT_COLUMNS: ColumnDef<Row<"accounts">>[] = [
  accountColumn(),
  { accessorKey: "accountType", header: "Type", cell: ({ row }) => titleCase(row.original.accountType) },
  {
    id: "balance",
    header: "Current Balance",
    enableSorting: false,
    meta: { cellClassName: "text-right tabular-nums" },
    cell: ({ row }) => formatCurrency(row.original.currentBalance, row.original.currency),
  },
  statusColumn("accountStatus"),
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return <TitledCard title={title}>{children}</TitledCard>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** One of the institution's lists: a table named after the institution, with its own empty state. */
function ListSection<T extends { id: string }>({ title, urlKey, label, columns, rows, emptyTitle, emptyText }: {
  title: string;
  /** Prefix of the address's params for this list's sort and page. */
  urlKey: string;
  label: string;
  columns: ColumnDef<T>[];
  rows: T[];
  emptyTitle: string;
  emptyText: string;
}) {
  return (
    <Section title={title}>
      <DataTable
        label={label}
        urlKey={urlKey}
        columns={columns}
        rows={rows}
        isLoading={false}
        empty={<EmptyState title={emptyTitle} text={emptyText} />}
      />
    </Section>
  );
}

function Details({ institution }: { institution: Institution }) {
  return (
    <Section title="Details">
      <dl className="grid gap-4 sm:grid-cols-2">
        <Fact label="Status">
          <StatusBadge status={institution.status} />
        </Fact>
        <Fact label="Licence Number">{institution.licenseNumber ?? "—"}</Fact>
        <Fact label="LEI">
          {institution.lei ? <span className="font-mono">{institution.lei}</span> : "—"}
        </Fact>
        {institution.terminatedAt && (
          <Fact label={institution.status === "terminated" ? "Terminated" : "Terminates"}>
            {formatDateTime(institution.terminatedAt)}
          </Fact>
        )}
        {institution.successor && (
          <Fact label="Successor">
            <Link
              to={`/institutions/${encodeURIComponent(institution.successor.id)}`}
              className="text-blue-900 underline underline-offset-2"
            >
              {institution.successor.name}
            </Link>
          </Fact>
        )}
        {institution.deletionAnnounced && (
          <Fact label="Directory">Deletion announced</Fact>
        )}
        <Fact label="Address">{institution.address}</Fact>
        <Fact label="Contact">{institution.emailAddress} · {institution.phoneNumber}</Fact>
        <Fact label="Branches">{branchLabel(institution.numberOfBranches)}</Fact>
        <Fact label="SWIFT">
          {institution.swiftParticipant
            ? `Participant${
              institution.swiftMembershipType ? ` (${titleCase(institution.swiftMembershipType)})` : ""
            }`
            : "Not a participant"}
        </Fact>
        <Fact label="Registered">{formatDateTime(institution.createdAt)}</Fact>
      </dl>
    </Section>
  );
}

function RegistryEntry({ entry }: { entry: Overview["nationalRegistryEntry"] }) {
  return (
    <Section title="National Routing Registry">
      {entry
        ? (
          <dl className="grid gap-3">
            <Fact label="Central Bank Code">{entry.centralBankCode}</Fact>
            <Fact label="National Bank Code">{entry.nationalBankCode}</Fact>
            <Fact label="SWIFT/BIC">{entry.swiftBicCode ?? "—"}</Fact>
            <Fact label="IBAN Prefix">{entry.ibanPrefix ?? "—"}</Fact>
            <Fact label="Participant Status">
              <StatusBadge status={entry.participantStatus} />
            </Fact>
          </dl>
        )
        : <p className="text-sm text-slate-600">No registry entry names this institution or its BICs.</p>}
    </Section>
  );
}

/**
 * Each reason under its author: a requested change shows the requester's reason under the
 * requester, then the approver's decision under the approver; a direct change its performer's.
 */
function HistoryCredits({ entry }: { entry: Overview["statusHistory"][number] }) {
  if (!entry.request) {
    return (
      <>
        <p className="text-xs text-slate-600">{formatDateTime(entry.at)} · {entry.by}</p>
        {entry.reason && <p className="mt-1 text-slate-700">“{entry.reason}”</p>}
      </>
    );
  }
  return (
    <dl className="mt-1 space-y-1">
      <div>
        <dt className="text-xs text-slate-600">
          Requested by {entry.request.by} · {formatDateTime(entry.request.at)}
        </dt>
        <dd className="text-slate-700">“{entry.request.reason}”</dd>
      </div>
      <div>
        <dt className="text-xs text-slate-600">Approved by {entry.by} · {formatDateTime(entry.at)}</dt>
        {entry.decisionReason && <dd className="text-slate-700">“{entry.decisionReason}”</dd>}
      </div>
    </dl>
  );
}

function History(
  { statusHistory, recentAuditEvents }: Pick<Overview, "statusHistory" | "recentAuditEvents">,
) {
  return (
    <>
      <Section title="Status History">
        <ol className="space-y-3" aria-label="Status history, newest first">
          {statusHistory.map((entry) => (
            <li key={`${entry.at}-${entry.to}`} className="text-sm">
              <p className="font-medium text-slate-900">
                {entry.from
                  ? `${titleCase(entry.from)} → ${titleCase(entry.to)}`
                  : `Registered as ${entry.to}`}
              </p>
              <HistoryCredits entry={entry} />
            </li>
          ))}
        </ol>
      </Section>
      <Section title="Recent Audit Events">
        <ol className="space-y-2" aria-label="Recent audit events, newest first">
          {recentAuditEvents.map((event) => (
            <li key={`${event.at}-${event.action}`} className="text-sm">
              <span className="font-medium text-slate-900">{titleCase(event.action)}</span>
              <span className="text-xs text-slate-600">· {formatDateTime(event.at)} · {event.by}</span>
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}

function Lists({ overview }: { overview: Overview }) {
  const name = overview.institution.name;
  return (
    <>
      <ListSection
        title="Routing Codes"
        urlKey="codes"
        label={`Routing codes of ${name}`}
        columns={CODE_COLUMNS}
        rows={overview.routingCodes}
        emptyTitle="No routing codes"
        emptyText="Codes assigned to this institution appear here."
      />
      <ListSection
        title="BIC Codes"
        urlKey="bics"
        label={`BIC codes of ${name}`}
        columns={BIC_COLUMNS}
        rows={overview.bicCodes}
        emptyTitle="No BIC codes"
        emptyText="BICs registered for this institution appear here."
      />
      <ListSection
        title="Accounts"
        urlKey="accounts"
        label={`Ledger accounts of ${name}`}
        columns={ACCOUNT_COLUMNS}
        rows={overview.accounts}
        emptyTitle="No accounts"
        emptyText="Ledger accounts held for this institution appear here."
      />
    </>
  );
}

function NotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Institution not found</h1>
      <p className="text-sm text-slate-600">It may have been removed, or the link is wrong.</p>
      <Link to="/institutions" className="text-sm font-medium text-blue-900 underline">
        Back to Financial Institutions
      </Link>
    </div>
  );
}

/** The institution's codes a termination ends: those not terminated already. */
function endingCodes(overview: Overview): EndingCodes {
  const inUse = (status: string) => status !== "terminated";
  return {
    routingCodes: overview.routingCodes.filter((row) => inUse(row.status)).map((row) => row.code),
    bics: overview.bicCodes.filter((row) => inUse(row.status)).map((row) => row.bicCode),
  };
}

export default function InstitutionPage() {
  const { id = "" } = useParams();
  // Keyed under the registry's key, so a status change (which refreshes the registry) refreshes this too.
  const overview = useInstitutionOverview<Overview>(id);
  if (overview.isLoading) return <Spinner label="Loading the institution" />;
  if (overview.isError || !overview.data) return <NotFound />;
  const { institution } = overview.data;
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/institutions" className="text-blue-900 underline underline-offset-2">
          Financial Institutions
        </Link>
        <span aria-hidden="true" className="px-1 text-slate-500">/</span>
        <span aria-current="page" className="text-slate-700">{institution.name}</span>
      </nav>
      <PageHeader
        title={institution.name}
        subtitle={`${titleCase(institution.type)} · ${institution.registrationNumber}`}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <EditDetailsAction institution={institution} />
            <TerminateAction institution={institution} codes={endingCodes(overview.data)} />
            <StatusAction institution={institution} />
          </div>
        }
      />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="min-w-0 space-y-6 xl:col-span-2">
          <Details institution={institution} />
          <ScheduledChanges changes={overview.data.scheduledChanges} />
          <Lists overview={overview.data} />
        </div>
        <div className="min-w-0 space-y-6">
          <RegistryEntry entry={overview.data.nationalRegistryEntry} />
          <RegistryHistory id={institution.id} />
          <History {...overview.data} />
        </div>
      </div>
    </div>
  );
}
