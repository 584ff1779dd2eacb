/** GET /api/search/everywhere: the palette's typed text and how many records of each kind it shows. */
import { z } from "zod";
import type { SearchHit } from "../../http/search_sources.ts";
import { requiredText } from "../../http/validation.ts";

/** Longer than any name, code or address people type into the palette, short enough to stay cheap. */
export const MAX_EVERYWHERE_QUERY_LENGTH = 100;
export const DEFAULT_HITS_PER_KIND = 5;
export const MAX_HITS_PER_KIND = 20;

export const everywhereQuerySchema = z.object({
  q: requiredText(MAX_EVERYWHERE_QUERY_LENGTH)
    .refine((text) => !text.includes("\u0000"), "Search text must not contain a NUL character"),
  limit: z.coerce.number().int().min(1).max(MAX_HITS_PER_KIND).default(DEFAULT_HITS_PER_KIND),
});
export type EverywhereQuery = z.infer<typeof everywhereQuerySchema>;

/** One kind's records in the answer, in the order of the sources. */
export interface EverywhereGroup {
  /** institution, routing_code, bic, account or user. */
  kind: string;
  label: string;
  hits: SearchHit[];
  /** More records of this kind match than were asked for. */
  more: boolean;
  /** This kind did not answer within the deadline; its hits are missing. */
  timedOut: boolean;
}

export interface EverywhereResult {
  query: string;
  groups: EverywhereGroup[];
}
