/** A registry entry's details, its connection details shown as a readable definition list, not raw JSON. */
import type { ReactNode } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { formatDateTime, titleCase } from "../../lib/format.ts";
import {
  ACCOUNT_NUMBER_FORMAT_OPTIONS,
  CONNECTION_PROTOCOL_OPTIONS,
  INSTITUTION_TYPE_OPTIONS,
  labelOf,
  type NationalRoutingEntry,
} from "./types.ts";

/** "settlementFrequency" → "Settlement Frequency"; "swift_integration" → "Swift Integration". */
function humanizeKey(key: string): string {
  return titleCase(key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[-\s]+/g, "_").toLowerCase());
}

function DetailValue({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined || value === "") return <span className="text-slate-600">—</span>;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) {
      return value.length === 0 ? <span className="text-slate-600">None</span> : value.map(String).join(", ");
    }
    return (
      <ol className="list-decimal space-y-2 pl-5">
        {value.map((item, index) => (
          <li key={index}>
            <DetailValue value={item} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === "object") {
    return <DetailsList items={jsonItems(value as Record<string, unknown>)} nested />;
  }
  return String(value);
}

function jsonItems(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).map(([key, inner]) => [humanizeKey(key), inner]);
}

function DetailsList(
  { items, nested = false }: { items: [label: string, value: unknown][]; nested?: boolean },
) {
  if (items.length === 0) return <span className="text-slate-600">None</span>;
  return (
    <dl
      className={`grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-2 text-sm ${
        nested ? "border-l border-slate-200 pl-3" : ""
      }`}
    >
      {items.map(([label, inner]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-700">{label}</dt>
          <dd className="break-words text-slate-900">
            <DetailValue value={inner} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function EntryDetailsDialog(
  { entry, onClose }: { entry: NationalRoutingEntry | null; onClose: () => void },
) {
  const details = entry?.connectionDetails;
  return (
    <Dialog
      open={entry !== null}
      onClose={onClose}
      wide
      title={entry ? entry.institutionName : ""}
      description="National routing registry entry"
    >
      {entry && (
        <div className="space-y-5">
          <DetailsList
            items={[
              ["Central Bank Code", entry.centralBankCode],
              ["Institution Type", labelOf(INSTITUTION_TYPE_OPTIONS, entry.institutionType)],
              ["Registry Number", entry.registryNumber],
              ["National Bank Code", entry.nationalBankCode],
              ["Account Number Format", labelOf(ACCOUNT_NUMBER_FORMAT_OPTIONS, entry.accountNumberFormat)],
              ["Connection Protocol", labelOf(CONNECTION_PROTOCOL_OPTIONS, entry.connectionProtocol)],
              ["SWIFT/BIC Code", entry.swiftBicCode],
              ["IBAN Prefix", entry.ibanPrefix],
              ["Settlement Account", entry.settlementAccount],
              ["Participant Status", titleCase(entry.participantStatus)],
              ["Registered", formatDateTime(entry.registrationDate)],
              ["Last Registry Update", formatDateTime(entry.lastRegistryUpdate)],
            ]}
          />
          <section aria-labelledby="connection-details-heading">
            <h3 id="connection-details-heading" className="mb-2 text-sm font-semibold text-slate-900">
              Connection Details
            </h3>
            {details !== null && typeof details === "object" && !Array.isArray(details)
              ? <DetailsList items={jsonItems(details as Record<string, unknown>)} />
              : <p className="text-sm text-slate-600">No connection details recorded.</p>}
          </section>
          <div className="flex justify-end">
            <Button variant="outline" onClick={onClose}>Close</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
