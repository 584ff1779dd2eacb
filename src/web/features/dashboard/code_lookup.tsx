/** The dashboard's Code Lookup card (spec 2.3, 5 and 8): routing codes, SWIFT codes or institutions. */
import { type FormEvent, useState } from "react";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { StatusBadge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import { type LookupRecord, type LookupResult, type LookupType, useCodeLookup } from "./api.ts";
import { TitledCard } from "../../components/ui/card.tsx";

const LOOKUP_TYPES = [
  { value: "routing", label: "Routing Code" },
  { value: "swift", label: "SWIFT/BIC Code" },
  { value: "institution", label: "Institution" },
] as const;
function describe(type: LookupType, record: LookupRecord): { title: string; detail: string } {
  switch (type) {
    case "routing":
      return { title: record.code ?? "", detail: `Prefix ${record.prefix ?? ""}` };
    case "swift":
      return { title: record.bicCode ?? "", detail: `Country ${record.countryCode ?? ""}` };
    case "institution":
      return { title: record.name ?? "", detail: record.registrationNumber ?? "" };
  }
}

function LookupResults({ result }: { result: LookupResult }) {
  return (
    <section aria-label="Lookup results">
      <p className="mb-2 text-sm font-medium text-slate-800">
        {result.records.length} {result.records.length === 1 ? "result" : "results"}
      </p>
      <ul
        className="divide-y divide-slate-100 rounded-md border border-slate-200"
        data-testid="lookup-results"
      >
        {result.records.map((record) => {
          const { title, detail } = describe(result.type, record);
          return (
            <li key={record.id} className="flex items-center justify-between gap-2 px-3 py-2">
              <div className="min-w-0">
                <p
                  className={`truncate text-sm text-slate-900 ${
                    result.type === "institution" ? "font-medium" : "font-mono"
                  }`}
                >
                  {result.type === "institution" ? <InstitutionLink id={record.id} name={title} /> : title}
                </p>
                <p className="truncate text-xs text-slate-600">{detail}</p>
              </div>
              <StatusBadge status={record.status} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const PLACEHOLDERS: Record<LookupType, string> = {
  institution: "Name, registration number…",
  swift: "BIC or bank code",
  routing: "Code or prefix",
};

export function CodeLookup() {
  const { toast } = useToast();
  const [type, setType] = useState<LookupType>("routing");
  const [query, setQuery] = useState("");
  const [result, setResult] = useState<LookupResult | null>(null);

  const lookup = useCodeLookup((found) => {
    setResult(found);
    if (found.records.length === 0) {
      toast({ title: "No results found", description: "No matching records found for your search." });
    }
  }, () => setResult(null));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = query.trim();
    if (value === "") {
      toast({ title: "Please enter a search value", variant: "destructive" });
      return;
    }
    lookup.mutate({ type, query: value });
  };

  return (
    <TitledCard
      title="Code Lookup"
      description="Find a routing code, a SWIFT/BIC code or an institution."
      contentClassName="space-y-4"
    >
      <form role="search" aria-label="Code lookup" noValidate onSubmit={submit} className="space-y-3">
        <SelectField
          label="Lookup type"
          value={type}
          onChange={(event) => setType(event.target.value as LookupType)}
          options={LOOKUP_TYPES}
        />
        <TextField
          label="Search value"
          value={query}
          autoComplete="off"
          onChange={(event) => setQuery(event.target.value)}
          placeholder={PLACEHOLDERS[type]}
        />
        <Button type="submit" className="w-full" disabled={lookup.isPending}>
          {lookup.isPending ? "Searching…" : "Search"}
        </Button>
      </form>
      {result && result.records.length > 0 && <LookupResults result={result} />}
    </TitledCard>
  );
}
