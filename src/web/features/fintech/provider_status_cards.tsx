/**
 * Spec 2.11 provider status cards. A sandboxed provider is labelled "Sandbox", never "Operational":
 * only a live provider whose latest call was answered is operational (src/domain/fintech.ts).
 */
import { ProviderHealthBadge } from "../../components/provider_health_badge.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/spinner.tsx";
import { formatDateTime, titleCase } from "../../lib/format.ts";
import { type ProviderStatus } from "./types.ts";
import { useFintechStatus } from "./api.ts";

function ProviderCard({ provider, testId }: { provider: ProviderStatus; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>{provider.name}</CardTitle>
          <div className="flex items-center gap-2" data-testid={`${testId}-status`}>
            <ProviderHealthBadge health={provider.status} />
            {provider.mode === "live" && <span className="text-sm font-medium text-slate-800">Live</span>}
          </div>
        </div>
        <p className="text-sm text-slate-600">{provider.authority}</p>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-wrap gap-2" aria-label={`${provider.name} capabilities`}>
          {provider.capabilities.map((capability) => (
            <li key={capability}><Badge variant="outline">{titleCase(capability)}</Badge></li>
          ))}
        </ul>
        {provider.mode === "sandbox"
          ? (
            <p className="mt-3 text-xs text-slate-600">
              No credentials are configured: requests are answered by the built-in sandbox and move no money.
            </p>
          )
          : (
            <p className="mt-3 text-xs text-slate-600">
              {provider.lastCallAt === null
                ? "No call has been made to the live provider yet."
                : `Latest call: ${formatDateTime(provider.lastCallAt)}.`}
            </p>
          )}
      </CardContent>
    </Card>
  );
}

export function ProviderStatusCards() {
  const { data, isLoading, isError } = useFintechStatus();
  if (isError) return <p className="text-sm text-slate-700">Provider status could not be loaded.</p>;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {isLoading || !data
        ? [0, 1].map((index) => <Skeleton key={index} className="h-36 w-full" />)
        : (
          <>
            <ProviderCard provider={data.plaid} testId="provider-plaid" />
            <ProviderCard provider={data.visa} testId="provider-visa" />
          </>
        )}
    </div>
  );
}
