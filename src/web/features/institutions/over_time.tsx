/**
 * The institution over time on its page: the changes still to come beside the current state
 * ("From 2027-03-01: name → New Name"), and every version with its dates and who requested and
 * approved it (GET /api/institutions/:id/history).
 */
import type { InstitutionOverview } from "../../../server/features/institutions/overview.ts";
import { TitledCard } from "../../components/ui/card.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { useInstitutionHistory } from "./api.ts";

/** "2027-03-01": the day a change takes effect, as the directory files name it. */
const day = (iso: string) => iso.slice(0, 10);

export function ScheduledChanges({ changes }: { changes: InstitutionOverview["scheduledChanges"] }) {
  if (changes.length === 0) return null;
  return (
    <TitledCard title="Changes to Come">
      <ul className="space-y-2" aria-label="Changes to come, soonest first">
        {changes.map((change) => (
          <li key={`${change.validFrom}-${change.summary}`} className="text-sm text-slate-900">
            <span className="font-medium">From {day(change.validFrom)}:</span> {change.summary}
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}

export function RegistryHistory({ id }: { id: string }) {
  const history = useInstitutionHistory(id);
  return (
    <TitledCard title="History">
      {history.isLoading && <Spinner label="Loading the history" />}
      {history.isError && <p className="text-sm text-slate-600">The history could not be loaded.</p>}
      <ol className="space-y-3" aria-label="Versions, newest first">
        {(history.data ?? []).map((version) => (
          <li key={version.seq} className="text-sm">
            <p className="font-medium text-slate-900">{version.summary}</p>
            <p className="text-xs text-slate-600">
              From {formatDateTime(version.validFrom)}
              {version.validTo ? ` to ${formatDateTime(version.validTo)}` : version.inForce ? " on" : " (to come)"}
            </p>
            <p className="text-xs text-slate-600">
              Requested by {version.requestedBy?.name ?? "System"}
              {version.approvedBy ? ` · Approved by ${version.approvedBy.name}` : ""} · recorded{" "}
              {formatDateTime(version.recordedAt)}
            </p>
          </li>
        ))}
      </ol>
    </TitledCard>
  );
}
