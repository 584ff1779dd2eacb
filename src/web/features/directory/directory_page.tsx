/**
 * The Directory screen (docs/directory.md): the published editions with their counts and files, what
 * the next edition would change at a chosen date, and the request to publish it (an approver decides).
 */
import { useState } from "react";
import { Link } from "react-router";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { formatDate, formatDateTime } from "../../lib/format.ts";
import { type Edition, type EditionCounts, useEditions, useNextEdition } from "./api.ts";
import { PrepareEditionDialog } from "./prepare_edition_dialog.tsx";
import { ApiError } from "../../lib/api.ts";

const RECORD_TYPES = ["INST", "RTC", "BIC"] as const;
const TYPE_LABELS: Record<string, string> = { INST: "Institutions", RTC: "Routing codes", BIC: "BICs" };

function total(counts: EditionCounts, flag: string): number {
  return RECORD_TYPES.reduce((sum, type) => sum + (counts[type]?.[flag] ?? 0), 0);
}

const DAY_MS = 86_400_000;

/** The first date the next edition may take: tomorrow, or the day after the last edition's date if later. */
function nextEditionDate(editions: readonly Edition[] | undefined): string {
  const last = editions?.find((edition) => edition.status !== "failed");
  const latest = last ? Date.parse(last.effectiveDate) + DAY_MS : 0;
  return new Date(Math.max(Date.now() + DAY_MS, latest)).toISOString().slice(0, 10);
}

function CountsTable(
  { counts, label }: { counts: { full: EditionCounts; delta: EditionCounts }; label: string },
) {
  return (
    <Table label={label}>
      <THead>
        <Tr>
          <Th>Record type</Th>
          <Th className="text-right">Records</Th>
          <Th className="text-right">Added</Th>
          <Th className="text-right">Modified</Th>
          <Th className="text-right">Deleted</Th>
        </Tr>
      </THead>
      <TBody>
        {RECORD_TYPES.map((type) => (
          <Tr key={type}>
            <Td>{TYPE_LABELS[type]}</Td>
            <Td className="text-right tabular-nums">{counts.full[type]?.total ?? 0}</Td>
            <Td className="text-right tabular-nums">{counts.delta[type]?.A ?? 0}</Td>
            <Td className="text-right tabular-nums">{counts.delta[type]?.M ?? 0}</Td>
            <Td className="text-right tabular-nums">{counts.delta[type]?.D ?? 0}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

function NextEditionCard({ defaultDate, latestPublished }: { defaultDate: string; latestPublished: number }) {
  const [effectiveDate, setEffectiveDate] = useState(defaultDate);
  const query = useNextEdition(effectiveDate, latestPublished);
  const next = query.data;
  const error = query.error instanceof ApiError ? query.error.serverMessage : query.error?.message;
  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle>Next edition</CardTitle>
        <CardDescription>
          What an edition effective on the chosen date would publish, against the last edition.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="max-w-xs">
          <TextField
            label="Effective date"
            type="date"
            value={effectiveDate}
            onChange={(event) => setEffectiveDate(event.target.value)}
          />
        </div>
        {query.isLoading && <p className="text-sm text-slate-600">Computing the preview…</p>}
        {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
        {next && <NextEditionDetails next={next} />}
      </CardContent>
    </Card>
  );
}

function NextEditionDetails({ next }: { next: NonNullable<ReturnType<typeof useNextEdition>["data"]> }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Edition {next.number}
        {next.previous
          ? ` compared with edition ${next.previous.number} (${formatDate(next.previous.effectiveDate)})`
          : ", the first edition"}: {total(next.counts.delta, "A")} added, {total(next.counts.delta, "M")}
        {" "}
        modified, {total(next.counts.delta, "D")} deleted.
      </p>
      <CountsTable counts={next.counts} label="Next edition counts" />
      {next.overlong.length > 0 && (
        <div
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p className="font-medium">
            These records do not fit the fixed-width layout; correct them before publishing:
          </p>
          <ul className="mt-1 list-disc pl-5">{next.overlong.map((line) => <li key={line}>{line}</li>)}</ul>
        </div>
      )}
      {next.changes.length === 0
        ? <p className="text-sm text-slate-600">No changes since the last edition.</p>
        : (
          <Table label="Next edition changes">
            <THead>
              <Tr>
                <Th>Flag</Th>
                <Th>Type</Th>
                <Th>Key</Th>
                <Th>Name</Th>
                <Th>Status</Th>
                <Th>Successor</Th>
                <Th>Deletion announced</Th>
              </Tr>
            </THead>
            <TBody>
              {next.changes.map((row) => (
                <Tr key={`${row.record_type}|${row.key}`}>
                  <Td className="font-mono">{row.changeFlag}</Td>
                  <Td>{row.record_type}</Td>
                  <Td className="font-mono">{row.key}</Td>
                  <Td>{row.name}</Td>
                  <Td>{row.status}</Td>
                  <Td className="font-mono">{row.successor_key || "—"}</Td>
                  <Td>{row.deletion_announced === "Y" ? "Yes" : "No"}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
    </div>
  );
}

/** When the edition was published, or that it is still publishing, or why it could not be. */
function PublicationState({ edition }: { edition: Edition }) {
  if (edition.status === "published" && edition.publishedAt) {
    return <>{formatDateTime(edition.publishedAt)}</>;
  }
  if (edition.status === "publishing") {
    return (
      <span className="font-medium text-amber-800">
        Publishing… (approved {formatDateTime(edition.approvedAt ?? "")})
      </span>
    );
  }
  return <span className="font-medium text-red-800">Not published: {edition.error}</span>;
}

function EditionsCard() {
  const query = useEditions();
  const editions = query.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Published editions</CardTitle>
        <CardDescription>
          Each edition is signed with the directory key:{" "}
          <a className="text-blue-800 underline" href="/api/directory/public-key.pem">public key (PEM)</a>,
          {" "}
          <a className="text-blue-800 underline" href="/api/directory/public-key.jwk">JWK</a>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isLoading
          ? <p className="text-sm text-slate-600">Loading…</p>
          : editions.length === 0
          ? (
            <EmptyState
              title="No edition published yet"
              text="Prepare the first edition; an approver publishes it."
            />
          )
          : (
            <Table label="Published editions">
              <THead>
                <Tr>
                  <Th>Edition</Th>
                  <Th>Effective</Th>
                  <Th>Published</Th>
                  <Th className="text-right">Records</Th>
                  <Th className="text-right">Added</Th>
                  <Th className="text-right">Modified</Th>
                  <Th className="text-right">Deleted</Th>
                  <Th>Files</Th>
                </Tr>
              </THead>
              <TBody>
                {editions.map((edition) => (
                  <Tr key={edition.number}>
                    <Td className="font-medium">{edition.number}</Td>
                    <Td>{formatDate(edition.effectiveDate)}</Td>
                    <Td>
                      <PublicationState edition={edition} />
                    </Td>
                    {[["full", "total"], ["delta", "A"], ["delta", "M"], ["delta", "D"]].map((
                      [file, flag],
                    ) => (
                      <Td key={flag} className="text-right tabular-nums">
                        {edition.counts ? total(edition.counts[file as "full" | "delta"], flag) : "—"}
                      </Td>
                    ))}
                    <Td>
                      <span className="flex flex-wrap gap-x-2">
                        {edition.files.map((file) => (
                          <a
                            key={file.name}
                            className="text-blue-800 underline"
                            href={file.url}
                            aria-label={`Edition ${edition.number} ${file.name}`}
                          >
                            {file.name}
                          </a>
                        ))}
                      </span>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
      </CardContent>
    </Card>
  );
}

export default function DirectoryPage() {
  const [prepareOpen, setPrepareOpen] = useState(false);
  const editions = useEditions();
  const defaultDate = nextEditionDate(editions.data);
  const latestPublished = editions.data?.find((edition) => edition.status === "published")?.number ?? 0;
  return (
    <>
      <PageHeader
        title="Directory"
        subtitle="Signed directory editions: full and delta files for banks to download"
        actions={
          <>
            <Link
              to="/directory/import"
              className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-4 h-9 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 focus-visible:ring-offset-2"
            >
              Registry Import
            </Link>
            <IfAllowed method="POST" path="/api/directory/editions">
              <Button onClick={() => setPrepareOpen(true)}>Prepare edition</Button>
            </IfAllowed>
          </>
        }
      />
      {
        /*
        Keyed by the default date and the latest published edition: an approved edition moves the
        preview to the next free date, and its publication (in the background) asks the preview again.
      */
      }
      {!editions.isLoading && (
        <NextEditionCard
          key={`${defaultDate}|${latestPublished}`}
          defaultDate={defaultDate}
          latestPublished={latestPublished}
        />
      )}
      <EditionsCard />
      <PrepareEditionDialog
        open={prepareOpen}
        onClose={() => setPrepareOpen(false)}
        defaultDate={defaultDate}
      />
    </>
  );
}
