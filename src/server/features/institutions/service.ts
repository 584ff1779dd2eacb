/**
 * The institution registry: listing and search (served by the FTS5 indexes of migrations 0100 and
 * 0101), registration, status changes, and the routing/SWIFT code lookup of GET /api/search.
 */
import { and, desc, eq, gte, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { institutions, routingCodes, swiftCodes } from "../../../../db/schema.ts";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { INITIAL_INSTITUTION_STATUS, type InstitutionStatus, lifecycleStatus } from "../../../domain/institution.ts";
import { LEI_TAKEN, validateLei } from "../../../domain/lei.ts";
import { type Actor, recordCreation } from "../../audit/trail.ts";
import { recordVersion } from "../../registry_history/versions.ts";
import { BoundedMap } from "../../bounded_map.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { replicaGeneration } from "../../db/replica_generation.ts";
import { AppError, conflict } from "../../http/errors.ts";
import { orderBySql } from "../../http/list_sorting.ts";
import { ftsPhrase, narrowingPiece, type TrigramShares } from "./narrowed_search.ts";
import type { SearchTexts } from "./search_texts.ts";
import { type SearchableText, TextMatcher } from "./text_matcher.ts";
import {
  type CreateInstitutionInput,
  type Institution,
  type InstitutionListQuery,
  type InstitutionSortKey,
  TRIGRAM_MIN_QUERY_LENGTH,
} from "./schemas.ts";

export { ftsPhrase };

export const AUDIT_ENTITY_TYPE = "institution";
export const REGISTRATION_NUMBER_TAKEN = "An institution with this registration number already exists";

export interface Page<T> {
  items: T[];
  total: number;
}

/** A stored row: SQLite keeps the SWIFT participation flag as 0 or 1; the status column the operating status. */
export type InstitutionRow = Omit<Institution, "swiftParticipant" | "status" | "successor" | "deletionAnnounced"> & {
  swiftParticipant: number | boolean;
  status: InstitutionStatus;
  deletionAnnouncedAt: string | null;
};

/**
 * The API shape (spec 3, with the registry's lifecycle): exactly these fields, whatever columns the
 * table grows later. `at` is the instant the row is in force at; the current table's row, read
 * without one, holds a termination only once it is in force.
 */
export function toInstitution(
  row: InstitutionRow,
  successorName: string | null = null,
  at: string | null = null,
): Institution {
  const terminatedAt = row.terminatedAt ?? null;
  const successorId = row.successorId ?? null;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    registrationNumber: row.registrationNumber,
    licenseNumber: row.licenseNumber,
    address: row.address,
    phoneNumber: row.phoneNumber,
    emailAddress: row.emailAddress,
    numberOfBranches: row.numberOfBranches,
    swiftParticipant: Boolean(row.swiftParticipant),
    swiftMembershipType: row.swiftMembershipType,
    status: lifecycleStatus(row.status, terminatedAt, at ?? terminatedAt ?? ""),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
    lei: row.lei ?? null,
    terminatedAt,
    successorId,
    successor: successorId === null ? null : { id: successorId, name: successorName ?? successorId },
    deletionAnnounced: (row.deletionAnnouncedAt ?? null) !== null,
  };
}

/** The rows as the API shows them, with their successors' names (one query for the whole page). */
export async function institutionsOf(
  db: Queryable,
  rows: readonly InstitutionRow[],
  at: string | null = null,
): Promise<Institution[]> {
  const ids = [...new Set(rows.map((row) => row.successorId).filter((id) => id !== null && id !== undefined))];
  const names = ids.length === 0 ? [] : await db.select({ id: institutions.id, name: institutions.name })
    .from(institutions).where(inArray(institutions.id, ids)).all();
  const nameOf = new Map(names.map((row) => [row.id, row.name]));
  return rows.map((row) => toInstitution(row, row.successorId ? nameOf.get(row.successorId) ?? null : null, at));
}

const COLUMNS = sql.raw(`i.id, i.name, i.type, i.registration_number AS registrationNumber,
  i.license_number AS licenseNumber, i.address, i.phone_number AS phoneNumber,
  i.email_address AS emailAddress, i.number_of_branches AS numberOfBranches,
  i.swift_participant AS swiftParticipant, i.swift_membership_type AS swiftMembershipType, i.status,
  i.created_at AS createdAt, i.updated_at AS updatedAt, i.created_by AS createdBy, i.lei,
  i.successor_id AS successorId, i.terminated_at AS terminatedAt, i.deletion_announced_at AS deletionAnnouncedAt`);

/**
 * The smallest string greater than every string starting with `prefix`, in code-point order
 * (UTF-8 byte order, which SQLite compares): the last character plus one. Null when there is none.
 */
export function prefixUpperBound(prefix: string): string | null {
  const chars = [...prefix];
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0)!;
    let next = last + 1;
    // Skip the surrogate block: those code points cannot stand alone in a JS string.
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return chars.join("") + String.fromCodePoint(next);
  }
  return null;
}

/** The FTS5 query for words starting with the text: the quoted text as a prefix phrase. */
export function wordPrefixQuery(text: string): string {
  return `${ftsPhrase(text)}*`;
}

type SearchIndex = "institutions_fts" | "institutions_prefix_fts";

/**
 * The institutions of the index's matches `offset` … `offset + limit - 1`, newest first. The page is
 * cut from the index's rowids alone, then joined: with the joins inside, SQLite runs them for every
 * skipped row of a deep OFFSET too.
 */
function matchedRows(
  db: Queryable,
  index: SearchIndex,
  match: string,
  limit: number,
  offset: number,
): Promise<InstitutionRow[]> {
  const table = sql.raw(index);
  return db.all<InstitutionRow>(sql`SELECT ${COLUMNS}
    FROM (SELECT rowid AS search_key FROM ${table} WHERE ${table} MATCH ${match}
      ORDER BY rowid LIMIT ${limit} OFFSET ${offset}) f
    JOIN institution_search_keys k ON k.search_key = f.search_key
    JOIN institutions i ON i.id = k.institution_id
    ORDER BY f.search_key`);
}

/**
 * One page of an FTS5 index's matches, newest first. Both indexes use the institution's search key
 * as rowid, and keys count downwards in registration order (migration 0102), so ascending rowid is
 * newest first: FTS5 walks its doclists forwards and stops after `limit` rows, with no sort. The
 * total of a full page comes from the count cache, else from `countElsewhere` (the in-memory copy
 * of search_texts.ts), else from counting the index's matches.
 */
async function searchIndex(
  db: Queryable,
  index: SearchIndex,
  match: string,
  limit: number,
  offset: number,
  counts?: CountCache,
  countElsewhere?: () => Promise<number | null>,
): Promise<Page<Institution>> {
  const table = sql.raw(index);
  const rows = await matchedRows(db, index, match, limit, offset);
  const count = async () =>
    await countElsewhere?.() ??
      (await db.all<{ total: number }>(
        sql`SELECT count(*) AS total FROM ${table} WHERE ${table} MATCH ${match}`,
      ))[0]
        .total;
  const total = totalFromPage(rows.length, limit, offset) ??
    (counts
      ? await counts.get(
        db,
        `${index}\u0000${match}`,
        count,
        (from, to) => countChange(db, index, match, from, to),
      )
      : await count());
  return { items: await institutionsOf(db, rows), total };
}

/** Past this many changes since a count, counting again is cheaper than checking each change. */
export const MAX_COUNT_CATCH_UP_CHANGES = 200;

interface JournalRow {
  [column: string]: unknown;
  institutionId: string;
  previousKnown: number;
  name: string | null;
  registrationNumber: string | null;
  licenseNumber: string | null;
  emailAddress: string | null;
}

const textMatcher = new TextMatcher();
const indexDefinitions = new Map<string, string>();

/** The statement that made the index, which TextMatcher copies to match as the index does. */
async function indexDefinition(db: Queryable, index: SearchIndex): Promise<string> {
  let definition = indexDefinitions.get(index);
  if (definition === undefined) {
    [{ definition }] = await db.all<{ definition: string }>(
      sql`SELECT sql AS definition FROM sqlite_master WHERE type = 'table' AND name = ${index}`,
    );
    indexDefinitions.set(index, definition);
  }
  return definition;
}

/**
 * How the changes of search versions `from` + 1 … `to` moved a match count: the changed institutions
 * that match now, less those whose text at `from` (each one's first journal row keeps it) matched
 * then. Null when the journal cannot say: it was trimmed, it holds rows from before migration 1251,
 * or the changes are too many to be worth it.
 */
export async function countChange(
  db: Queryable,
  index: SearchIndex,
  match: string,
  from: number,
  to: number,
): Promise<number | null> {
  if (to - from > MAX_COUNT_CATCH_UP_CHANGES) return null;
  const changes = await db.all<JournalRow>(sql`SELECT institution_id AS institutionId,
    previous_known AS previousKnown, previous_name AS name,
    previous_registration_number AS registrationNumber, previous_license_number AS licenseNumber,
    previous_email_address AS emailAddress
    FROM institution_search_changes WHERE version > ${from} AND version <= ${to} ORDER BY version`);
  if (changes.length !== to - from || changes.some((change) => change.previousKnown !== 1)) return null;
  const atFrom = new Map<string, JournalRow>();
  for (const change of changes) {
    if (!atFrom.has(change.institutionId)) atFrom.set(change.institutionId, change);
  }
  const definition = await indexDefinition(db, index);
  const matchedBefore = textMatcher.count(
    definition,
    match,
    [...atFrom.values()].flatMap(({ name, registrationNumber, licenseNumber, emailAddress }) =>
      name === null ? [] : [{
        name,
        registrationNumber: registrationNumber!,
        licenseNumber: licenseNumber!,
        emailAddress: emailAddress!,
      }]
    ),
  );
  // As the triggers give them to the index (a deleted institution has no row, and no match now).
  const current = await db.all<SearchableText & { [column: string]: unknown }>(sql`SELECT name,
    registration_number AS registrationNumber, coalesce(license_number, '') AS licenseNumber,
    email_address AS emailAddress
    FROM institutions WHERE id IN (${sql.join([...atFrom.keys()].map((id) => sql`${id}`), sql`, `)})`);
  const matchedNow = textMatcher.count(definition, match, current);
  return matchedNow - matchedBefore;
}

/** Past this many rows holding the piece, the whole text is looked up in the index instead. */
export const MAX_NARROWED_CANDIDATES = 200;

/**
 * A substring search by the piece of its text that leaves out common trigrams (narrowed_search.ts):
 * the rows holding the piece, newest first, and of those the ones whose texts match the whole text,
 * checked as the index checks them. All of them are checked, so the total is exact. Null when the
 * text has no such piece, or the piece is in more than MAX_NARROWED_CANDIDATES rows.
 */
async function narrowedSearch(
  db: Queryable,
  shares: TrigramShares,
  search: string,
  limit: number,
  offset: number,
): Promise<Page<Institution> | null> {
  const piece = await narrowingPiece(shares, search);
  if (piece === null) return null;
  const rows = await matchedRows(db, "institutions_fts", ftsPhrase(piece), MAX_NARROWED_CANDIDATES + 1, 0);
  if (rows.length > MAX_NARROWED_CANDIDATES) return null;
  // As the triggers give them to the index.
  const texts = rows.map((row) => ({
    name: row.name,
    registrationNumber: row.registrationNumber,
    licenseNumber: row.licenseNumber ?? "",
    emailAddress: row.emailAddress,
  }));
  const matching = textMatcher.matching(
    await indexDefinition(db, "institutions_fts"),
    ftsPhrase(search),
    texts,
  );
  const matches = rows.filter((_, position) => matching.has(position));
  return { items: await institutionsOf(db, matches.slice(offset, offset + limit)), total: matches.length };
}

export const MAX_CACHED_COUNTS = 256;
/** The count cache's key for the whole registry; search keys start with an index's name. */
const WHOLE_REGISTRY_COUNT_KEY = "\u0000all";

/**
 * Match counts of recent searches. Counting visits every match (slow for a search that matches
 * most of the registry), and paging through results asks for the same count on every page.
 * An entry is the count at one `institutions_search_version`: triggers bump it in the same statement
 * as any change to the search indexes (migration 0103), whichever process makes it. At a later
 * version the entry is brought up to date by `catchUp` (the change those versions made to the
 * count) where it can say, else counted again.
 */
export interface CountCache {
  get(
    db: Queryable,
    key: string,
    compute: () => Promise<number>,
    catchUp?: (from: number, to: number) => Promise<number | null>,
  ): Promise<number>;
}

async function searchVersion(db: Queryable): Promise<number> {
  const [{ version }] = await db.all<{ version: number }>(
    sql`SELECT version FROM institutions_search_version WHERE id = 1`,
  );
  return version;
}

export function createCountCache(maxEntries = MAX_CACHED_COUNTS): CountCache {
  const totals = new BoundedMap<string, { total: number; version: number }>(maxEntries);
  return {
    async get(db, query, compute, catchUp) {
      // A rebuilt replica counts its versions again from an older value: its counts are kept apart.
      const key = `${replicaGeneration()}:${query}`;
      const version = await searchVersion(db);
      const entry = totals.get(key);
      if (entry?.version === version) {
        totals.set(key, entry);
        return entry.total;
      }
      // The journal, the rows and the version are read by separate statements: they describe one
      // state only if no searched field changed meanwhile, so the version is read again after them.
      if (entry !== undefined && entry.version < version && catchUp) {
        const change = await catchUp(entry.version, version);
        if (change !== null && await searchVersion(db) === version) {
          const total = entry.total + change;
          totals.set(key, { total, version });
          return total;
        }
      }
      // A count is exact as of its own moment; it is kept only if that moment was at `version`, as a
      // later catch-up from it assumes.
      const total = await compute();
      if (await searchVersion(db) === version) totals.set(key, { total, version });
      else totals.delete(key);
      return total;
    },
  };
}

/**
 * A short, non-empty page is the last one, and an empty first page means no match at all, so both
 * tell the total without a count: the count is the costly half of a search, and most searches
 * return a short page.
 */
export function totalFromPage(rowCount: number, limit: number, offset: number): number | null {
  if (rowCount === 0) return offset === 0 ? 0 : null;
  return rowCount < limit ? offset + rowCount : null;
}

/**
 * Search semantics: 3 or more characters match any substring of the name, registration number,
 * licence number or e-mail (trigram index); 1-2 characters match the start of any word in them
 * (word-prefix index), since shorter strings have no trigrams. Both ignore case and accents.
 */
export async function listInstitutions(
  db: Queryable,
  query: InstitutionListQuery,
  counts?: CountCache,
  texts?: SearchTexts,
  shares?: TrigramShares,
): Promise<Page<Institution>> {
  const search = query.search?.trim() ?? "";
  const { limit, offset } = query;
  if (query.status || query.type || query.sort) return await filteredList(db, { ...query, search });
  const byLei = await leiMatch(db, search, limit, offset);
  if (byLei) return byLei;
  if (search === "") {
    const rows = await db.all<InstitutionRow>(sql`SELECT ${COLUMNS} FROM institutions i
      ORDER BY i.created_at DESC, i.rowid DESC LIMIT ${limit} OFFSET ${offset}`);
    // Counting every institution walks a whole index. Every registration and
    // deletion bumps the search version (migration 0103), so the count cache keeps the total too.
    const count = async () =>
      (await db.all<{ total: number }>(sql`SELECT count(*) AS total FROM institutions`))[0].total;
    const total = totalFromPage(rows.length, limit, offset) ??
      (counts ? await counts.get(db, WHOLE_REGISTRY_COUNT_KEY, count) : await count());
    return { items: await institutionsOf(db, rows), total };
  }
  if ([...search].length >= TRIGRAM_MIN_QUERY_LENGTH) {
    const narrowed = shares && await narrowedSearch(db, shares, search, limit, offset);
    if (narrowed) return narrowed;
    return await searchIndex(
      db,
      "institutions_fts",
      ftsPhrase(search),
      limit,
      offset,
      counts,
      texts && (() => texts.count(search)),
    );
  }
  return await searchIndex(db, "institutions_prefix_fts", wordPrefixQuery(search), limit, offset, counts);
}

/** A LEI typed in full finds its institution by the unique index; null when the text is no LEI held. */
async function leiMatch(db: Queryable, search: string, limit: number, offset: number): Promise<Page<Institution> | null> {
  const lei = validateLei(search);
  if (!lei.ok) return null;
  const rows = await db.all<InstitutionRow>(sql`SELECT ${COLUMNS} FROM institutions i WHERE i.lei = ${lei.value}`);
  if (rows.length === 0) return null;
  return { items: await institutionsOf(db, rows.slice(offset, offset + limit)), total: rows.length };
}

const SORT_COLUMNS: Record<InstitutionSortKey, SQL> = {
  name: sql`i.name COLLATE NOCASE`,
  type: sql`i.type`,
  registrationNumber: sql`i.registration_number COLLATE NOCASE`,
  status: sql`i.status`,
  createdAt: sql`i.created_at`,
};

/**
 * The list narrowed by status and type and/or ordered by a column, optionally within a search's
 * matches. The plain newest-first list and plain searches keep their index-ordered paths above;
 * this one sorts the filtered rows, which the status index and the search indexes keep small.
 */
async function filteredList(
  db: Queryable,
  query: InstitutionListQuery & { search: string },
): Promise<Page<Institution>> {
  const conditions: SQL[] = [];
  // The current table holds a termination only once it is in force.
  if (query.status === "terminated") conditions.push(sql`i.terminated_at IS NOT NULL`);
  else if (query.status) conditions.push(sql`i.status = ${query.status} AND i.terminated_at IS NULL`);
  if (query.type) conditions.push(sql`i.type = ${query.type}`);
  if (query.search !== "") {
    const trigram = [...query.search].length >= TRIGRAM_MIN_QUERY_LENGTH;
    const table = sql.raw(trigram ? "institutions_fts" : "institutions_prefix_fts");
    const match = trigram ? ftsPhrase(query.search) : wordPrefixQuery(query.search);
    const lei = validateLei(query.search);
    conditions.push(sql`(i.id IN (SELECT k.institution_id FROM institution_search_keys k
      WHERE k.search_key IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ${match}))${
      lei.ok ? sql` OR i.lei = ${lei.value}` : sql``
    })`);
  }
  const where = conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const order = orderBySql(SORT_COLUMNS, query, sql`i.created_at DESC, i.rowid DESC`);
  const [rows, [count]] = await Promise.all([
    db.all<InstitutionRow>(
      sql`SELECT ${COLUMNS} FROM institutions i ${where} ORDER BY ${order} LIMIT ${query.limit} OFFSET ${query.offset}`,
    ),
    db.all<{ total: number }>(sql`SELECT count(*) AS total FROM institutions i ${where}`),
  ]);
  return { items: await institutionsOf(db, rows), total: count.total };
}

export async function getInstitution(db: Queryable, id: string): Promise<Institution | null> {
  const row = await db.select().from(institutions).where(eq(institutions.id, id)).get();
  return row ? (await institutionsOf(db, [row]))[0] : null;
}

export interface CreateOptions {
  /** Demo data only: a registration date in the past. The API always records the present. */
  createdAt?: string;
}

/** Registers an institution as pending, audited in the same transaction. */
export function createInstitution(
  db: Database,
  actor: Actor,
  input: CreateInstitutionInput,
  options: CreateOptions = {},
): Promise<Institution> {
  return db.transaction((tx) => insertInstitution(tx, actor, input, options));
}

/** The registration itself, inside the caller's transaction (the demo seeder batches many). */
export async function insertInstitution(
  tx: Tx,
  actor: Actor,
  input: CreateInstitutionInput,
  options: CreateOptions = {},
): Promise<Institution> {
  const taken = await tx.select({ id: institutions.id }).from(institutions)
    .where(sql`${institutions.registrationNumber} = ${input.registrationNumber} COLLATE NOCASE`).get();
  if (taken) throw conflict("registrationNumber", REGISTRATION_NUMBER_TAKEN);
  // Callers inside the server (the demo seed, bulk registration) may leave the LEI out.
  const lei = input.lei ?? null;
  if (lei !== null) await requireLeiFree(tx, lei, null);
  const at = options.createdAt ?? new Date().toISOString();
  const id = crypto.randomUUID();
  await tx.insert(institutions).values({
    id,
    name: input.name,
    type: input.type,
    registrationNumber: input.registrationNumber,
    licenseNumber: input.licenseNumber,
    address: input.address,
    phoneNumber: input.phoneNumber,
    emailAddress: input.emailAddress,
    numberOfBranches: input.numberOfBranches,
    swiftParticipant: input.swiftParticipant,
    swiftMembershipType: input.swiftParticipant ? input.swiftMembershipType : null,
    status: INITIAL_INSTITUTION_STATUS,
    createdAt: at,
    updatedAt: at,
    createdBy: actor.userId,
    lei,
  });
  const row = (await tx.select().from(institutions).where(eq(institutions.id, id)).get())!;
  const created = toInstitution(row);
  await recordVersion(tx, {
    entityType: "institution",
    entityId: id,
    validFrom: at,
    changes: row,
    summary: "Registered",
    requestedBy: actor.userId,
    approvedBy: null,
  }, Date.parse(at), { alreadyApplied: true });
  await recordCreation(tx, actor, AUDIT_ENTITY_TYPE, id, created);
  return created;
}

/**
 * Refuses a LEI that another institution holds now or is scheduled to take (a 409 on `lei`): the
 * unique index would otherwise refuse the scheduled change only when it falls due.
 */
export async function requireLeiFree(tx: Queryable, lei: string, ownId: string | null): Promise<void> {
  const own = ownId ?? "";
  const [holder] = await tx.all<{ id: string }>(sql`SELECT id FROM institutions WHERE lei = ${lei} AND id <> ${own}
    UNION ALL SELECT entity_id AS id FROM registry_versions WHERE entity_type = 'institution'
      AND applied_at IS NULL AND entity_id <> ${own} AND json_extract(changes, '$.lei') = ${lei}
    LIMIT 1`);
  if (holder) throw conflict("lei", LEI_TAKEN);
}

/** Codes are stored upper-case; people type them any way (a-z only: "ſ" must not find S…). */
function normalizeCode(text: string): string {
  return asciiUpperCase(text.trim());
}

function codePrefixRange(column: typeof routingCodes.code | typeof swiftCodes.bicCode, prefix: string): SQL {
  const upper = prefixUpperBound(prefix);
  return upper === null ? gte(column, prefix) : and(gte(column, prefix), lt(column, upper))!;
}

/** Routing codes whose code starts with the query (a whole code, or any leading part), or whose prefix is it. */
export async function searchRoutingCodes(db: Queryable, text: string, limit: number, offset: number) {
  const q = normalizeCode(text);
  const where = or(codePrefixRange(routingCodes.code, q), eq(routingCodes.prefix, q));
  const [items, [count]] = await Promise.all([
    db.select().from(routingCodes).where(where).orderBy(desc(routingCodes.createdAt), desc(routingCodes.code))
      .limit(limit).offset(offset),
    db.select({ total: sql<number>`count(*)` }).from(routingCodes).where(where),
  ]);
  return { items, total: count.total };
}

/** An 11-character BIC ending in XXX names the primary office, stored as its 8-character form. */
const PRIMARY_OFFICE_SUFFIX = "XXX";
const BIC11_LENGTH = 11;
const BIC8_LENGTH = 8;

/**
 * SWIFT codes whose BIC starts with the query: a whole BIC, or its bank code (the BIC's first four
 * characters, so every BIC of that bank), or any other leading part. "…XXX" also finds the BIC8.
 */
export async function searchSwiftCodes(db: Queryable, text: string, limit: number, offset: number) {
  const q = normalizeCode(text);
  const primaryOffice = q.length === BIC11_LENGTH && q.endsWith(PRIMARY_OFFICE_SUFFIX)
    ? eq(swiftCodes.bicCode, q.slice(0, BIC8_LENGTH))
    : undefined;
  const where = primaryOffice
    ? or(codePrefixRange(swiftCodes.bicCode, q), primaryOffice)
    : codePrefixRange(swiftCodes.bicCode, q);
  const [items, [count]] = await Promise.all([
    db.select().from(swiftCodes).where(where).orderBy(desc(swiftCodes.createdAt), desc(swiftCodes.bicCode))
      .limit(limit).offset(offset),
    db.select({ total: sql<number>`count(*)` }).from(swiftCodes).where(where),
  ]);
  return { items, total: count.total };
}

/** Refuses a code registered to an institution that does not exist, as a field error of `institutionId`. */
export async function requireInstitution(tx: Queryable, institutionId: string): Promise<void> {
  const institution = await tx.select({ id: institutions.id }).from(institutions)
    .where(eq(institutions.id, institutionId)).get();
  if (institution === undefined) {
    throw new AppError("validation", "institutionId: Institution not found", {
      field: "institutionId",
      fields: { institutionId: "Institution not found" },
    });
  }
}
