/**
 * Pages of the registry's list and search, kept as the JSON text they were answered with, while the
 * institutions change epoch (migration 1250) has not moved. A search page costs real CPU (the FTS5
 * phrase walk, the joins and the row conversion; figures in docs/bench.md), and people ask for the
 * same pages again: while typing, paging back, or many operators looking up the same bank. The epoch is read after the request arrived (ChangeEpochs.fresh), and an entry is
 * stored with the epoch read before its page, so a registration, status change or edit in any
 * process is in the very next answer.
 */
import type { ChangeEpochs } from "../../db/change_epochs.ts";
import type { InstitutionListQuery } from "./schemas.ts";

/** At most this many pages are kept… */
export const MAX_CACHED_PAGES = 256;
/**
 * …and at most this many characters of JSON in all: a page of 500 long records is large, and the
 * process's memory is bounded.
 */
export const MAX_CACHED_PAGE_CHARS = 4 * 1024 * 1024;

export interface CachedPage {
  /** The JSON array of institutions, as sent. */
  body: string;
  total: number;
}

interface Entry extends CachedPage {
  epoch: number;
}

/** One key per distinct answer: the validated query, with the search trimmed as the service trims it. */
export function pageKey(query: InstitutionListQuery): string {
  const { search, limit, offset, status, type, sort, order } = query;
  return JSON.stringify([
    search?.trim() ?? "",
    limit,
    offset,
    status ?? null,
    type ?? null,
    sort ?? null,
    order ?? null,
  ]);
}

export class PageCache {
  readonly #epochs: ChangeEpochs;
  readonly #maxPages: number;
  readonly #maxChars: number;
  /** Oldest first (Map order); a hit moves its entry to the end. */
  readonly #entries = new Map<string, Entry>();
  #chars = 0;

  constructor(epochs: ChangeEpochs, maxPages = MAX_CACHED_PAGES, maxChars = MAX_CACHED_PAGE_CHARS) {
    this.#epochs = epochs;
    this.#maxPages = maxPages;
    this.#maxChars = maxChars;
  }

  /** The page for `query`: from memory when its epoch is current, else from `load`, then kept. */
  async get(query: InstitutionListQuery, load: () => Promise<CachedPage>): Promise<CachedPage> {
    const key = pageKey(query);
    const epoch = (await this.#epochs.fresh()).institutions;
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#remove(key, entry);
      if (entry.epoch === epoch) {
        this.#entries.set(key, entry);
        this.#chars += entry.body.length;
        return entry;
      }
    }
    const page = await load();
    if (page.body.length <= this.#maxChars) {
      // Another load of this key may have finished meanwhile; either entry's epoch was read before
      // its page, so keeping the last one is safe: a stale entry is only ever a miss.
      const previous = this.#entries.get(key);
      if (previous !== undefined) this.#remove(key, previous);
      while (
        this.#entries.size > 0 &&
        (this.#entries.size >= this.#maxPages || this.#chars + page.body.length > this.#maxChars)
      ) {
        const [oldestKey, oldest] = this.#entries.entries().next().value!;
        this.#remove(oldestKey, oldest);
      }
      this.#entries.set(key, { ...page, epoch });
      this.#chars += page.body.length;
    }
    return page;
  }

  #remove(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#chars -= entry.body.length;
  }
}
