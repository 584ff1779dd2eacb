/**
 * What every list shows when its rows could not be loaded: the screen's message and a Retry button
 * that asks the server again (the button waits while the new answer is on its way).
 */
import { Button } from "./button.tsx";

export interface LoadFailure {
  message: string;
  /** A second line, e.g. who may read the list. */
  detail?: string;
  retry: () => void;
  retrying: boolean;
}

/** A query's failure as a list shows it, or null while it has not failed. */
export function loadFailure(
  query: { isError: boolean; isFetching: boolean; refetch: () => unknown },
  message: string,
  detail?: string,
): LoadFailure | null {
  if (!query.isError) return null;
  return { message, detail, retry: () => void query.refetch(), retrying: query.isFetching };
}

export function LoadFailed({ failure }: { failure: LoadFailure }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-8 text-center">
      <p className="text-sm font-medium text-red-700">{failure.message}</p>
      {failure.detail && <p className="text-sm text-slate-600">{failure.detail}</p>}
      <Button variant="outline" onClick={failure.retry} disabled={failure.retrying} aria-busy={failure.retrying}>
        {failure.retrying ? "Retrying…" : "Retry"}
      </Button>
    </div>
  );
}

/** A list drawn without DataTable (a plain table, cards): its failure with Retry, or nothing. */
export function QueryFailed({ query, message }: { query: Parameters<typeof loadFailure>[0]; message: string }) {
  const failure = loadFailure(query, message);
  return failure ? <LoadFailed failure={failure} /> : null;
}
