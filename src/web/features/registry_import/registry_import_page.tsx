/**
 * Bulk import of the registry (docs/directory_import.md): choose a directory file, read its dry-run
 * report (counts, the lines in error, a sample of what would change), submit it for a second
 * person's approval, and follow the imports so far.
 */
import { type ChangeEvent, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TitledCard } from "../../components/ui/card.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import {
  dryRun,
  type ImportReport,
  IMPORTS_PATH,
  type RegistryImport,
  submitImport,
  useImports,
} from "./api.ts";

const TYPE_LABELS = { institutions: "Institutions", routingCodes: "Routing codes", bics: "BICs" } as const;
const STATE_LABELS: Record<RegistryImport["state"], string> = {
  pending_approval: "Waiting for approval",
  approved: "Approved, queued to apply",
  applying: "Applying",
  applied: "Applied",
  failed: "Failed, nothing applied",
  rejected: "Rejected",
  cancelled: "Withdrawn",
  expired: "Expired",
};
const SUBMIT_HINT =
  "A second person with the approver role approves it; headquarters then applies the whole import, or none of it";

function CountsTable({ report }: { report: ImportReport }) {
  return (
    <Table label="Counts by record type">
      <THead>
        <Tr>
          <Th>Record type</Th>
          <Th>Valid</Th>
          <Th>Invalid</Th>
          <Th>Add</Th>
          <Th>Modify</Th>
          <Th>Unchanged</Th>
        </Tr>
      </THead>
      <TBody>
        {(Object.keys(TYPE_LABELS) as (keyof typeof TYPE_LABELS)[]).map((type) => {
          const counts = report.counts[type];
          return (
            <Tr key={type}>
              <Td>{TYPE_LABELS[type]}</Td>
              <Td>{counts.valid}</Td>
              <Td>{counts.invalid}</Td>
              <Td>{counts.add}</Td>
              <Td>{counts.modify}</Td>
              <Td>{counts.unchanged}</Td>
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}

function ErrorsTable({ report }: { report: ImportReport }) {
  if (report.errorCount === 0) return null;
  const shown = report.errors.length < report.errorCount
    ? `The first ${report.errors.length} of ${report.errorCount} errors`
    : `${report.errorCount} ${report.errorCount === 1 ? "error" : "errors"}`;
  return (
    <TitledCard title="Lines in error" description={`${shown}. Correct the file and check it again.`}>
      <Table label="Lines in error">
        <THead>
          <Tr>
            <Th>Line</Th>
            <Th>Field</Th>
            <Th>Message</Th>
          </Tr>
        </THead>
        <TBody>
          {report.errors.map((error, index) => (
            <Tr key={`${error.line}-${error.field}-${index}`}>
              <Td className="font-mono">{error.line}</Td>
              <Td className="font-mono">{error.field}</Td>
              <Td>{error.message}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </TitledCard>
  );
}

function ChangesTable({ report }: { report: ImportReport }) {
  if (report.changeCount === 0) return null;
  return (
    <TitledCard
      title="What would change"
      description={`${report.changes.length} of ${report.changeCount} records to add or modify, modifications first`}
    >
      <Table label="What would change">
        <THead>
          <Tr>
            <Th>Line</Th>
            <Th>Record</Th>
            <Th>Action</Th>
            <Th>Fields</Th>
          </Tr>
        </THead>
        <TBody>
          {report.changes.map((change) => (
            <Tr key={change.line}>
              <Td className="font-mono">{change.line}</Td>
              <Td className="font-mono">{change.recordType} {change.key}</Td>
              <Td>{change.action === "add" ? "Add" : "Modify"}</Td>
              <Td>
                <ul>
                  {change.fields.map((field) => (
                    <li key={field.field}>
                      <span className="font-mono">{field.field}</span>:{" "}
                      {change.action === "modify" && <>{field.before ?? "(none)"} →{" "}</>}
                      {field.after ?? "(none)"}
                    </li>
                  ))}
                </ul>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </TitledCard>
  );
}

function FailureNote({ failure }: { failure: NonNullable<RegistryImport["failure"]> }) {
  return (
    <div className="mt-1 max-w-md text-xs text-red-700">
      <p>{failure.message}</p>
      {failure.errors && failure.errors.length > 0 && (
        <ul className="mt-1 list-disc pl-4">
          {failure.errors.map((error) => (
            <li key={`${error.line}-${error.field}`}>Line {error.line}, {error.field}: {error.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ImportsTable() {
  const imports = useImports();
  const rows = imports.data ?? [];
  return (
    <TitledCard title="Imports">
      {rows.length === 0 ? <EmptyState title="No imports yet" /> : (
        <Table label="Imports">
          <THead>
            <Tr>
              <Th>File</Th>
              <Th>Rows</Th>
              <Th>State</Th>
              <Th>Submitted</Th>
              <Th>Applied</Th>
            </Tr>
          </THead>
          <TBody>
            {rows.map((item) => (
              <Tr key={item.id}>
                <Td>{item.fileName ?? "(no name)"}</Td>
                <Td>{item.rows}</Td>
                <Td>
                  <Badge>{STATE_LABELS[item.state]}</Badge>
                  {item.failure && <FailureNote failure={item.failure} />}
                </Td>
                <Td>{formatDateTime(item.submittedAt)} by {item.submittedByName}</Td>
                <Td>{item.appliedAt ? `${formatDateTime(item.appliedAt)} by ${item.appliedByName}` : "—"}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </TitledCard>
  );
}

function useImportFlow() {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      handleMutationError(error, toast, failure);
    } finally {
      setBusy(false);
    }
  };
  const check = (chosen: File) =>
    run(async () => {
      setFile(chosen);
      setReport(null);
      setReport(await dryRun(chosen));
    }, "Failed to check the file");
  const submit = (reason: string) =>
    run(async () => {
      const answer = await submitImport(file!, reason);
      if (answer.kind === "refused") {
        if (answer.report) setReport(answer.report);
        toast({ title: "Not submitted", description: answer.message, variant: "destructive" });
        return;
      }
      const state = STATE_LABELS[answer.import.state].toLowerCase();
      toast({
        title: answer.kind === "submitted" ? "Submitted for approval" : "Already imported",
        description: answer.kind === "submitted"
          ? `${SUBMIT_HINT}; nothing has changed yet.`
          : `This file is already an import: ${state}.`,
      });
      queryClient.invalidateQueries({ queryKey: [IMPORTS_PATH] });
    }, "Failed to submit the import");
  return { file, report, busy, check, submit };
}

export default function RegistryImportPage() {
  const flow = useImportFlow();
  const [reason, setReason] = useState("");
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    if (chosen) flow.check(chosen);
  };
  return (
    <div className="space-y-6">
      <PageHeader
        title="Registry Import"
        subtitle="Load institutions, routing codes and BICs from a directory file in the console's CSV layout"
      />
      <IfAllowed method="POST" path="/api/directory/imports/dry-run">
        <TitledCard
          title="Directory file"
          description="Each file is checked first (a dry run): nothing changes until it is approved"
        >
          <label className="block text-sm font-medium text-slate-900" htmlFor="directory-file">
            Directory file (CSV)
          </label>
          <input
            id="directory-file"
            type="file"
            accept=".csv,text/csv"
            disabled={flow.busy}
            onChange={onFile}
            className="mt-1 block text-sm"
          />
        </TitledCard>
        {flow.report && (
          <section aria-label="Dry-run report" className="space-y-6">
            <TitledCard
              title="Dry-run report"
              description={`${flow.file?.name ?? "The file"}: ${flow.report.rows} records, ${
                flow.report.valid ? "no errors" : `${flow.report.errorCount} errors`
              }`}
            >
              <CountsTable report={flow.report} />
            </TitledCard>
            <ErrorsTable report={flow.report} />
            <ChangesTable report={flow.report} />
            {flow.report.valid && (
              <TitledCard title="Submit for approval" description={SUBMIT_HINT}>
                <ApprovalReasonField
                  value={reason}
                  onChange={setReason}
                  required
                  hint="Why the registry is loaded from this file"
                />
                <Button
                  className="mt-3"
                  disabled={flow.busy || reason.trim() === ""}
                  onClick={() => flow.submit(reason.trim())}
                >
                  Submit for approval
                </Button>
              </TitledCard>
            )}
          </section>
        )}
      </IfAllowed>
      <ImportsTable />
    </div>
  );
}
