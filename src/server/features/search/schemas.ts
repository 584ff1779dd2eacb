/** GET /api/search/everywhere: the palette's typed text and how many records of each kind it shows. */
import { z } from "zod";
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

const hitSchema = z.object({
  id: z.string(),
  label: z.string(),
  detail: z.string(),
  link: z.string().describe("The SPA path of the record's screen"),
});

export const everywhereResultSchema = z.object({
  query: z.string(),
  groups: z.array(z.object({
    kind: z.string().describe("institution, routing_code, bic, account or user"),
    label: z.string(),
    hits: z.array(hitSchema),
    more: z.boolean().describe("More records of this kind match than were asked for"),
    timedOut: z.boolean().describe("This kind did not answer in time; its hits are missing"),
  })),
});
export type EverywhereResult = z.infer<typeof everywhereResultSchema>;
