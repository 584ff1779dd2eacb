/**
 * Search everywhere: one text asked of every kind of record the caller may read, in parallel, each
 * kind bounded by the limit and all of them by one deadline, so one slow kind never holds the palette.
 */
import { mayCall, type Role, ruleFor } from "../../../domain/access.ts";
import type { SearchFindings, SearchSource } from "../../http/search_sources.ts";
import type { EverywhereQuery, EverywhereResult } from "./schemas.ts";

/** Past this a kind's group is answered empty and marked timed out; the palette asks again as the text changes. */
export const SEARCH_TIMEOUT_MS = 2_000;

/** The sources whose list route the roles may call, in the order given. */
export function readableSources(sources: readonly SearchSource[], roles: readonly Role[]): SearchSource[] {
  return sources.filter((source) => {
    const rule = ruleFor(...source.readRoute);
    return rule !== undefined && mayCall(rule, roles);
  });
}

export async function searchEverywhere(
  sources: readonly SearchSource[],
  roles: readonly Role[],
  query: EverywhereQuery,
  timeoutMs = SEARCH_TIMEOUT_MS,
): Promise<EverywhereResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  try {
    const groups = await Promise.all(
      readableSources(sources, roles).map(async (source) => {
        const found: SearchFindings | null = await Promise.race([
          source.find(query.q, query.limit),
          deadline,
        ]);
        return {
          kind: source.kind,
          label: source.label,
          hits: found?.hits ?? [],
          more: found?.more ?? false,
          timedOut: found === null,
        };
      }),
    );
    return { query: query.q, groups };
  } finally {
    clearTimeout(timer);
  }
}
