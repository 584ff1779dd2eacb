/** Spec 2.7: an IBAN validator with the result's details, counters, and the table of country formats. */
import { type FormEvent, type ReactNode, useMemo, useState } from "react";
import { InstitutionLink } from "../../components/institution_link.tsx";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { StatCard, TitledCard } from "../../components/ui/card.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { inputClassName, TextField } from "../../components/ui/form.tsx";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { EmptyState } from "../../components/ui/table.tsx";
import { useToast } from "../../lib/toast.ts";
import { type IbanConfig, type IbanValidationResult } from "./types.ts";
import { useIbanConfigs, useValidateIban } from "./api.ts";
import { statusColumn } from "../../components/columns.tsx";
import { useUrlText } from "../../lib/table_url_state.ts";
import { type LoadFailure, loadFailure } from "../../components/ui/load_failed.tsx";

/** The registry has 89 formats: one page holds them all, so nothing hides behind paging. */
const FORMATS_PAGE_SIZE = 100;

const COLUMNS: ColumnDef<IbanConfig>[] = [
  {
    accessorKey: "countryCode",
    header: "Country Code",
    cell: ({ row }) => (
      <>
        <span className="font-mono font-medium">{row.original.countryCode}</span>
        {row.original.countryName && <span className="ml-2 text-slate-600">{row.original.countryName}</span>}
      </>
    ),
  },
  { accessorKey: "ibanLength", header: "IBAN Length" },
  { accessorKey: "bankCodeLength", header: "Bank Code Length" },
  { accessorKey: "accountNumberLength", header: "Account Number Length" },
  {
    accessorKey: "exampleIban",
    header: "Example IBAN",
    enableSorting: false,
    meta: { cellClassName: "font-mono text-xs" },
    cell: ({ row }) => row.original.exampleIban ?? "",
  },
  statusColumn("status"),
];

function matchesFormat(config: IbanConfig, needle: string): boolean {
  return [config.countryCode, config.countryName, config.exampleIban]
    .some((value) => value?.toLowerCase().includes(needle));
}
const IBAN_STANDARD = "ISO 13616";
/** Room for a pasted print form ("IBAN " plus 34 characters in groups of four). */
const MAX_IBAN_INPUT_LENGTH = 64;
const INVALID_FALLBACK = "The IBAN format is invalid or not supported.";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 font-mono text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function ValidationResult(
  { result, countryName }: { result: IbanValidationResult; countryName: string | null },
) {
  const { details } = result;
  return (
    <section
      aria-label="Validation result"
      data-testid="iban-result"
      className="mt-4 rounded-md border border-slate-200 p-4"
    >
      <div className="flex items-center gap-2">
        <h3 className="text-base font-semibold text-slate-900">
          {result.valid ? "Valid IBAN" : "Invalid IBAN"}
        </h3>
        {result.valid
          ? <Badge className="bg-green-800 text-white">valid</Badge>
          : <Badge variant="destructive">invalid</Badge>}
      </div>
      {!result.valid && <p className="mt-2 text-sm text-red-800">{details.error || INVALID_FALLBACK}</p>}
      <dl className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {details.print && <Detail label="Print Format">{details.print}</Detail>}
        {details.countryCode && (
          <Detail label="Country">
            {countryName ? `${details.countryCode} (${countryName})` : details.countryCode}
          </Detail>
        )}
        {details.checkDigits && <Detail label="Check Digits">{details.checkDigits}</Detail>}
        {details.bankCode && <Detail label="Bank Code">{details.bankCode}</Detail>}
        {details.branchCode && <Detail label="Branch Code">{details.branchCode}</Detail>}
        {details.accountNumber && <Detail label="Account Number">{details.accountNumber}</Detail>}
        {details.institution && (
          <Detail label="Institution">
            <span className="font-sans">
              <InstitutionLink id={details.institution.id} name={details.institution.name} />
            </span>{" "}
            ({details.institution.bicCode})
          </Detail>
        )}
      </dl>
    </section>
  );
}

function IbanValidator({ configs }: { configs: IbanConfig[] }) {
  const [iban, setIban] = useState("");
  const [result, setResult] = useState<IbanValidationResult | null>(null);
  const { toast } = useToast();
  const validate = useValidateIban((answer) => {
    setResult(answer);
    if (!answer.valid) {
      toast({
        title: "Invalid IBAN",
        description: answer.details.error || INVALID_FALLBACK,
        variant: "destructive",
      });
    }
  }, () => setResult(null));

  const blank = iban.trim() === "";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!blank && !validate.isPending) validate.mutate(iban);
  };
  const countryName =
    configs.find((config) => config.countryCode === result?.details.countryCode)?.countryName ?? null;

  return (
    <TitledCard
      title="IBAN Validator"
      description="Checks the country format, length, check digits and national check digits."
      className="mb-6"
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField
            label="IBAN"
            value={iban}
            maxLength={MAX_IBAN_INPUT_LENGTH}
            autoComplete="off"
            spellCheck={false}
            placeholder="GB29 NWBK 6016 1331 9268 19"
            onChange={(event) => setIban(asciiUpperCase(event.target.value))}
            className="font-mono"
          />
        </div>
        <Button type="submit" disabled={blank || validate.isPending}>
          {validate.isPending ? "Validating…" : "Validate"}
        </Button>
      </form>
      {result && <ValidationResult result={result} countryName={countryName} />}
    </TitledCard>
  );
}

function CountryFormats(
  { configs, isLoading, failure }: { configs: IbanConfig[]; isLoading: boolean; failure: LoadFailure | null },
) {
  const [formatSearch, setFormatSearch] = useUrlText("search");
  const visibleConfigs = useMemo(() => {
    const needle = formatSearch.trim().toLowerCase();
    return needle === "" ? configs : configs.filter((config) => matchesFormat(config, needle));
  }, [configs, formatSearch]);
  return (
    <TitledCard title="Country Configurations" description="IBAN formats of the SWIFT IBAN Registry.">
      <DataTable
        label="IBAN country configurations"
        columns={COLUMNS}
        rows={visibleConfigs}
        isLoading={isLoading}
        pageSize={FORMATS_PAGE_SIZE}
        toolbar={
          <input
            type="search"
            aria-label="Search IBAN formats"
            placeholder="Search by country code or name"
            value={formatSearch}
            onChange={(event) => setFormatSearch(event.target.value)}
            className={`${inputClassName} sm:max-w-xs`}
          />
        }
        failure={failure}
        empty={configs.length === 0
          ? <EmptyState title="No country configurations" />
          : <EmptyState title="No matching country formats" text="Try a different country code or name." />}
      />
    </TitledCard>
  );
}

export default function IbanValidationPage() {
  const query = useIbanConfigs();
  const { data, isLoading } = query;
  const configs = data ?? [];
  return (
    <>
      <PageHeader
        title="IBAN Validation"
        subtitle="International Bank Account Number validation and country formats"
      />
      <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard label="Supported Countries" value={isLoading ? "…" : configs.length} />
        <StatCard
          label="Active Configs"
          value={isLoading ? "…" : configs.filter((config) => config.status === "active").length}
        />
        <StatCard label="Standard" value={IBAN_STANDARD} />
      </div>
      <IbanValidator configs={configs} />
      <CountryFormats
        configs={configs}
        isLoading={isLoading}
        failure={loadFailure(query, "Country configurations could not be loaded")}
      />
    </>
  );
}
