/** Spec 2.12 Funding Authority panel: the spec's statement, with the sources' actual balances. */
import { Skeleton } from "../../components/ui/spinner.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useFundingSources } from "./api.ts";
import { TitledCard } from "../../components/ui/card.tsx";

export function FundingAuthorityPanel() {
  const { data, isLoading } = useFundingSources();
  return (
    <TitledCard
      title="Funding Authority"
      description={
        <>
          Cards are funded directly by the central bank. The central bank treasury and the settlement source
          have enormous available balances with immediate availability.
        </>
      }
    >
      <dl className="grid gap-3 sm:grid-cols-3">
        {isLoading
          ? Array.from({ length: 3 }, (_, index) => <Skeleton key={index} className="h-16 w-full" />)
          : (data ?? []).map((source) => (
            <div key={source.fundingSource} className="rounded-md border border-slate-200 p-3">
              <dt className="text-sm font-medium text-slate-700">{source.label}</dt>
              <dd
                className="mt-1 text-lg font-semibold text-slate-900"
                data-testid={`available-${source.fundingSource}`}
              >
                {formatCurrency(source.availableBalance, source.currency)}
              </dd>
              <dd className="text-xs text-slate-600">
                {source.accountNumber} ·{" "}
                {source.accountStatus === "active" ? "Immediate availability" : source.accountStatus}
              </dd>
            </div>
          ))}
      </dl>
    </TitledCard>
  );
}
