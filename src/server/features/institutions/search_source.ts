/**
 * The registry's part of search everywhere: institutions, routing codes and BICs, found by the very
 * queries of the registry list and of GET /api/search (same indexes, same prefix and substring rules),
 * each leading to the institution's page, which shows its codes.
 */
import { inArray } from "drizzle-orm";
import { institutions } from "../../../../db/schema.ts";
import type { Database, Queryable } from "../../db/database.ts";
import type { AppDeps } from "../../http/context.ts";
import type { SearchHit, SearchSource } from "../../http/search_sources.ts";
import { TrigramShares } from "./narrowed_search.ts";
import { SearchTexts } from "./search_texts.ts";
import {
  type CountCache,
  createCountCache,
  listInstitutions,
  searchRoutingCodes,
  searchSwiftCodes,
} from "./service.ts";

/** The registry search's caches, one set per app: the list, GET /api/search and the palette share them. */
export interface InstitutionSearchState {
  counts: CountCache;
  texts: SearchTexts;
  shares: TrigramShares;
}

export function institutionSearchState(db: Database): InstitutionSearchState {
  return {
    counts: createCountCache(),
    texts: new SearchTexts(db.statements),
    shares: new TrigramShares(db.statements),
  };
}

const institutionLink = (id: string) => `/institutions/${encodeURIComponent(id)}`;

/** The names of the institutions the codes belong to, for the codes' second line. */
async function institutionNames(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: institutions.id, name: institutions.name }).from(institutions)
    .where(inArray(institutions.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A code found: its own text, and the facts of its second line after the institution's name. */
interface CodeLine {
  label: string;
  facts: (string | null)[];
}

/**
 * Codes found by one of GET /api/search's code queries; the second line says what the code is, whose
 * and whether in use: "Routing code · Meridian Commercial Bank · active".
 */
function codeSource<Code extends { id: string; institutionId: string }>(
  db: Queryable,
  source: Pick<SearchSource, "kind" | "label" | "readRoute"> & { what: string },
  search: (
    db: Queryable,
    text: string,
    limit: number,
    offset: number,
  ) => Promise<{ items: Code[]; total: number }>,
  line: (code: Code) => CodeLine,
): SearchSource {
  const { what, ...described } = source;
  return {
    ...described,
    async find(text, limit) {
      const page = await search(db, text, limit, 0);
      const names = await institutionNames(db, page.items.map((code) => code.institutionId));
      const hits = page.items.map((code): SearchHit => {
        const { label, facts } = line(code);
        const detail = [
          what,
          names.get(code.institutionId) ?? "Unknown institution",
          ...facts.filter(Boolean),
        ];
        return { id: code.id, label, detail: detail.join(" · "), link: institutionLink(code.institutionId) };
      });
      return { hits, more: page.total > hits.length };
    },
  };
}

export function institutionSearchSources(deps: AppDeps, state: InstitutionSearchState): SearchSource[] {
  const db = deps.db.read;
  const institutionSource: SearchSource = {
    kind: "institution",
    label: "Institutions",
    readRoute: ["GET", "/api/institutions"],
    async find(text, limit) {
      const page = await listInstitutions(
        db,
        { search: text, limit, offset: 0 },
        state.counts,
        state.texts,
        state.shares,
      );
      const hits = page.items.map((item): SearchHit => ({
        id: item.id,
        label: item.name,
        detail: [item.registrationNumber, item.type.replace("_", " "), item.status].join(" · "),
        link: institutionLink(item.id),
      }));
      return { hits, more: page.total > hits.length };
    },
  };
  const routingSource = codeSource(
    db,
    {
      kind: "routing_code",
      label: "Routing codes",
      readRoute: ["GET", "/api/routing-codes"],
      what: "Routing code",
    },
    searchRoutingCodes,
    (code) => ({ label: code.code, facts: [code.branchCode, code.status] }),
  );
  const bicSource = codeSource(
    db,
    { kind: "bic", label: "BICs", readRoute: ["GET", "/api/swift-codes"], what: "BIC" },
    searchSwiftCodes,
    (code) => ({ label: code.bicCode, facts: [code.countryCode, code.status] }),
  );
  return [institutionSource, routingSource, bicSource];
}
