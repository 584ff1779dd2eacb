/** The directory's data: the published editions, the next edition's preview, and the request to publish it. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApprovableMutation } from "../../lib/mutation.ts";

export const EDITIONS_KEY = "/api/directory/editions";
export const NEXT_EDITION_KEY = "/api/directory/next";

/** Per record type (INST, RTC, BIC): the total and each change flag's count. */
export type EditionCounts = Record<string, Record<string, number>>;

/**
 * An edition of the list: published (with counts and files), or approved and still publishing in the
 * background, or failed to publish (with why), until a later edition is published.
 */
export interface Edition {
  number: number;
  effectiveDate: string;
  previousNumber: number | null;
  publishedAt: string | null;
  reason: string;
  keyId: string | null;
  counts: { full: EditionCounts; delta: EditionCounts } | null;
  files: { name: string; url: string }[];
  status: "published" | "publishing" | "failed";
  approvedAt: string | null;
  error: string | null;
}

export interface ChangedRow {
  changeFlag: string;
  record_type: string;
  key: string;
  institution_key: string;
  name: string;
  status: string;
  successor_key: string;
  deletion_announced: string;
}

export interface NextEdition {
  number: number;
  effectiveDate: string;
  previous: { number: number; effectiveDate: string } | null;
  counts: { full: EditionCounts; delta: EditionCounts };
  changes: ChangedRow[];
  overlong: string[];
}

/** How often the list is asked again while an edition is publishing. */
const PUBLISHING_POLL_MS = 2_000;

export const useEditions = () =>
  useQuery<Edition[]>({
    queryKey: [EDITIONS_KEY],
    refetchInterval: (query) =>
      query.state.data?.some((edition) => edition.status === "publishing") ? PUBLISHING_POLL_MS : false,
  });

/**
 * What an edition effective on `effectiveDate` would publish; nothing asked while no date is chosen.
 * Keyed by the latest published edition too: the preview compares with it, so a publication asks again.
 */
export const useNextEdition = (effectiveDate: string, latestPublished: number) =>
  useQuery<NextEdition>({
    queryKey: [`${NEXT_EDITION_KEY}?effectiveDate=${encodeURIComponent(effectiveDate)}`, latestPublished],
    enabled: effectiveDate !== "",
    retry: false,
  });

export const usePrepareEdition = (onDone: () => void) =>
  useApprovableMutation({
    mutationFn: (body: { effectiveDate: string; reason: string }) =>
      apiJson<unknown>("POST", EDITIONS_KEY, body),
    errorTitle: "The edition could not be prepared",
    onDone,
    refresh: () => {},
  });
