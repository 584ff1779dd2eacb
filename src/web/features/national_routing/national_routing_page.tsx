/** Spec 2.8: the Register Institution dialog, three integration cards and the registry table. */
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle, StatCard } from "../../components/ui/card.tsx";
import { EmptyState, SkeletonRows, TBody, THead, Table, Td, Th, Tr } from "../../components/ui/table.tsx";
import { formatDate } from "../../lib/format.ts";
import { EntryDetailsDialog } from "./entry_details_dialog.tsx";
import { RegisterInstitutionDialog } from "./register_institution_dialog.tsx";
import {
  CONNECTION_PROTOCOL_OPTIONS,
  INSTITUTION_TYPE_OPTIONS,
  labelOf,
  NATIONAL_ROUTING_KEY,
  type NationalRoutingEntry,
} from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";

const LOADING_ROWS = 5;
const COLUMN_COUNT = 9;

export default function NationalRoutingPage() {
  const { data, isLoading, isError } = useQuery<NationalRoutingEntry[]>({ queryKey: [NATIONAL_ROUTING_KEY] });
  const [registerOpen, setRegisterOpen] = useState(false);
  const [selected, setSelected] = useState<NationalRoutingEntry | null>(null);
  const entries = data ?? [];

  const counts = useMemo(() => ({
    withBic: entries.filter((entry) => entry.swiftBicCode).length,
    withIban: entries.filter((entry) => entry.ibanPrefix).length,
  }), [entries]);

  return (
    <>
      <PageHeader
        title="National Routing Registry"
        subtitle="Participants with their SWIFT and IBAN integration data"
        actions={<IfAllowed method="POST" path="/api/national-routing"><Button onClick={() => setRegisterOpen(true)}>Register Institution</Button></IfAllowed>}
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <StatCard label="SWIFT Integration" value="Active" hint="ISO 20022 and MT messaging" />
        <StatCard label="BIC Registry" value={isLoading ? "…" : counts.withBic} hint="Entries with a BIC" />
        <StatCard
          label="IBAN Participants"
          value={isLoading ? "…" : counts.withIban}
          hint="Entries with an IBAN prefix"
        />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Registry</CardTitle>
        </CardHeader>
        <CardContent>
          {isError
            ? <EmptyState title="The registry could not be loaded" text="Reload the page to try again." />
            : !isLoading && entries.length === 0
            ? (
              <EmptyState
                title="No registry entries yet"
                text="Registered institutions will appear here."
                action={
                  <Button
                    variant="outline"
                    onClick={() => setRegisterOpen(true)}
                  >
                    Register First Institution
                  </Button>
                }
              />
            )
            : (
              <Table label="National routing registry">
                <THead>
                  <Tr>
                    <Th>Central Bank Code</Th>
                    <Th>Institution</Th>
                    <Th>Registry Number</Th>
                    <Th>National Bank Code</Th>
                    <Th>SWIFT/BIC</Th>
                    <Th>IBAN Prefix</Th>
                    <Th>Protocol</Th>
                    <Th>Status</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </Tr>
                </THead>
                <TBody>
                  {isLoading
                    ? <SkeletonRows rows={LOADING_ROWS} columns={COLUMN_COUNT} />
                    : entries.map((entry) => (
                      <Tr key={entry.id}>
                        <Td className="font-mono font-medium">{entry.centralBankCode}</Td>
                        <Td>
                          <div className="font-medium text-slate-900">{entry.institutionName}</div>
                          <div className="text-xs text-slate-600">
                            {labelOf(INSTITUTION_TYPE_OPTIONS, entry.institutionType)} · registered{" "}
                            {formatDate(entry.registrationDate)}
                          </div>
                        </Td>
                        <Td>{entry.registryNumber}</Td>
                        <Td className="font-mono">{entry.nationalBankCode}</Td>
                        <Td className="font-mono">{entry.swiftBicCode ?? "—"}</Td>
                        <Td className="font-mono">{entry.ibanPrefix ?? "—"}</Td>
                        <Td>{labelOf(CONNECTION_PROTOCOL_OPTIONS, entry.connectionProtocol)}</Td>
                        <Td>
                          <StatusBadge status={entry.participantStatus} />
                        </Td>
                        <Td className="text-right">
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => setSelected(entry)}
                            aria-label={`View details of ${entry.institutionName}`}
                          >
                            Details
                          </Button>
                        </Td>
                      </Tr>
                    ))}
                </TBody>
              </Table>
            )}
        </CardContent>
      </Card>
      <RegisterInstitutionDialog open={registerOpen} onClose={() => setRegisterOpen(false)} />
      <EntryDetailsDialog entry={selected} onClose={() => setSelected(null)} />
    </>
  );
}
