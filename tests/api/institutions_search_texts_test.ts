import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { type Database, openDatabase } from "../../src/server/db/database.ts";
import { SearchTexts, sqliteFolds } from "../../src/server/features/institutions/search_texts.ts";
import { ftsPhrase, insertInstitution } from "../../src/server/features/institutions/service.ts";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

const NAMES = [
  "Crédit Mutuel du Nord",
  "CREDIT AGRICOLE",
  "Øresund Sparbank",
  "Łódź Cooperative Bank",
  "Straße & Söhne Privatbank",
  "Banco Español de Crédito",
  "Harbor Trust",
  "Ελληνική Τράπεζα",
  "Škoda Credit Union 🏦",
];

let serial = 0;
async function register(db: Database, name: string): Promise<string> {
  serial += 1;
  const created = await db.transaction((tx) =>
    insertInstitution(tx, ACTOR, {
      name,
      type: "commercial",
      registrationNumber: `REG-${String(serial).padStart(6, "0")}`,
      licenseNumber: serial % 2 === 0 ? `LIC/${serial}` : null,
      address: "1 Harbor Plaza",
      phoneNumber: "+1 202 555 0100",
      emailAddress: `desk${serial}@bank-${serial % 3}.example`,
      numberOfBranches: 1,
      swiftParticipant: false,
      swiftMembershipType: null,
    })
  );
  return created.id;
}

/** What the FTS5 trigram index itself counts for this text. */
async function indexCount(db: Database, text: string): Promise<number> {
  const row = await db.statements.get<{ total: number }>(
    "SELECT count(*) AS total FROM institutions_fts WHERE institutions_fts MATCH ?",
    [ftsPhrase(text)],
  );
  return row!.total;
}

/** The copy's count once any background load it started has finished. */
async function settledCount(texts: SearchTexts, query: string): Promise<number | null> {
  const first = await texts.count(query);
  await texts.whenLoaded();
  return first ?? await texts.count(query);
}

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const QUERIES = [
  "credit",
  "CRÉDIT",
  "crédito",
  "bank",
  "BANK",
  "oresund",
  "øresund",
  "lodz",
  "łódź",
  "strasse",
  "straße",
  "söhne",
  "sohne",
  "españ",
  "ελληνική",
  "ΕΛΛΗΝΙΚΉ",
  "škoda",
  "skoda",
  "union 🏦",
  ".example",
  "@bank-1",
  "lic/",
  "REG-0",
  "& S",
  "trust\u0000reg",
  "Trust REG",
  "rust",
  "nowhere",
];

Deno.test("SearchTexts.count() agrees with the FTS5 trigram index on accents, case, scripts and field edges", async () => {
  await withApp(async (t) => {
    for (const name of NAMES) await register(t.deps.db, name);
    const texts = new SearchTexts(t.deps.db.statements);
    for (const query of QUERIES) {
      const counted = await settledCount(texts, query);
      if (query.includes("\u0000")) {
        assert.equal(counted, null, "a text with the field separator is left to the index");
        continue;
      }
      assert.equal(counted, await indexCount(t.deps.db, query), `count of "${query}"`);
    }
    assert.equal(await settledCount(texts, "trust REG"), 0, "a search never spans two fields");
  });
});

Deno.test("SearchTexts loads in the background: the index counts until the copy is ready", async () => {
  await withApp(async (t) => {
    for (let i = 0; i < 12; i++) await register(t.deps.db, `Harbor Bank ${i}`);
    const texts = new SearchTexts(t.deps.db.statements);
    assert.equal(await texts.count("harbor"), null, "the first call starts the load");
    await texts.whenLoaded();
    assert.equal(await texts.count("harbor"), 12);
  });
});

Deno.test("SearchTexts follows registrations, changes and deletions made through another connection", async () => {
  await withApp(async (t) => {
    const other = await openDatabase(t.deps.db.url);
    try {
      const texts = new SearchTexts(t.deps.db.statements);
      await register(t.deps.db, "Harbor Commercial Bank");
      assert.equal(await settledCount(texts, "harbor"), 1);
      const second = await register(other, "Harbor Savings Bank");
      const third = await register(other, "Crédit Harbor");
      assert.equal(await settledCount(texts, "harbor"), 3, "two registrations by the other process");
      await other.transaction((tx) =>
        tx.run(sql`UPDATE institutions SET name = 'Quay Savings Bank' WHERE id = ${second}`)
      );
      assert.equal(await settledCount(texts, "harbor"), 2, "a renamed institution");
      assert.equal(await settledCount(texts, "quay"), 1);
      await other.transaction((tx) => tx.run(sql`DELETE FROM institutions WHERE id = ${third}`));
      assert.equal(await settledCount(texts, "harbor"), 1, "a deleted institution");
      assert.equal(await settledCount(texts, "crédit"), await indexCount(t.deps.db, "crédit"));
    } finally {
      other.close();
    }
  });
});

Deno.test("SearchTexts stays consistent under concurrent counts while another connection registers", async () => {
  await withApp(async (t) => {
    const other = await openDatabase(t.deps.db.url);
    try {
      const texts = new SearchTexts(t.deps.db.statements);
      await register(t.deps.db, "Harbor Commercial Bank");
      const registering = (async () => {
        for (let i = 0; i < 20; i++) await register(other, `Harbor Savings Bank ${i}`);
      })();
      const counting = Promise.all(
        Array.from({ length: 50 }, async () => {
          const total = await texts.count("harbor");
          assert.ok(total === null || (total >= 1 && total <= 21), `a count between the writes: ${total}`);
        }),
      );
      await Promise.all([registering, counting]);
      await texts.whenLoaded();
      const all = await Promise.all(Array.from({ length: 10 }, () => texts.count("harbor")));
      assert.deepEqual(all, Array(10).fill(21));
      assert.equal(
        await settledCount(texts, "savings bank 1"),
        await indexCount(t.deps.db, "savings bank 1"),
      );
    } finally {
      other.close();
    }
  });
});

Deno.test("SearchTexts reloads everything when the journal no longer reaches back to its version", async () => {
  await withApp(async (t) => {
    const texts = new SearchTexts(t.deps.db.statements);
    await register(t.deps.db, "Harbor Commercial Bank");
    assert.equal(await settledCount(texts, "harbor"), 1);
    await register(t.deps.db, "Harbor Savings Bank");
    await register(t.deps.db, "Harbor Trust");
    // As if thousands of changes had been made and the oldest pruned: the next one is missing.
    await t.deps.db.transaction((tx) =>
      tx.run(sql`DELETE FROM institution_search_changes
        WHERE version < (SELECT max(version) FROM institution_search_changes)`)
    );
    assert.equal(await settledCount(texts, "harbor"), 3);
  });
});

Deno.test("the search journal keeps only the last 10,000 changes", async () => {
  await withApp(async (t) => {
    const id = await register(t.deps.db, "Harbor Commercial Bank");
    await t.deps.db.transaction(async (tx) => {
      for (let i = 0; i < 10_050; i++) {
        await tx.run(
          sql`UPDATE institutions SET email_address = ${`desk${i}@harbor.example`} WHERE id = ${id}`,
        );
      }
    });
    const [row] = await t.deps.db.read.all<{ rows: number; oldest: number; newest: number; version: number }>(
      sql`SELECT count(*) AS rows, min(c.version) AS oldest, max(c.version) AS newest, v.version
        FROM institution_search_changes c, institutions_search_version v`,
    );
    assert.equal(row.rows, 10_000);
    assert.equal(row.newest, row.version);
    assert.equal(row.oldest, row.version - 9_999);
    const texts = new SearchTexts(t.deps.db.statements);
    assert.equal(await settledCount(texts, "desk10049@"), 1);
  });
});

Deno.test("SearchTexts leaves counting to the index past its institution limit", async () => {
  await withApp(async (t) => {
    for (const name of ["Harbor One", "Harbor Two", "Harbor Three"]) await register(t.deps.db, name);
    const texts = new SearchTexts(t.deps.db.statements, 2);
    assert.equal(await settledCount(texts, "harbor"), null);
    const roomy = new SearchTexts(t.deps.db.statements, 3);
    assert.equal(await settledCount(roomy, "harbor"), 3);
    await register(t.deps.db, "Harbor Four");
    assert.equal(await settledCount(roomy, "harbor"), null, "a registration past the limit");
  });
});

Deno.test("GET /api/institutions gives the exact X-Total-Count of a search with more matches than a page", async () => {
  await withApp(async (t) => {
    for (let i = 0; i < 7; i++) {
      await register(t.deps.db, i % 2 === 0 ? `Crédit Harbor ${i}` : `Harbor Bank ${i}`);
    }
    const req = t.as(await t.login());
    const total = async (search: string) =>
      (await req("GET", `/api/institutions?search=${encodeURIComponent(search)}&limit=2`)).headers.get(
        "x-total-count",
      );
    assert.equal(await total("harbor"), "7");
    assert.equal(await total("CREDIT"), "4");
    await register(t.deps.db, "Crédit Harbor 7");
    assert.equal(await total("credit harbor"), "5");
  });
});

Deno.test("sqliteFolds() reads each character's folding from SQLite's trigram tokenizer", () => {
  const folds = sqliteFolds(["É", "é", "Ø", "Σ", "🏦"]);
  assert.ok(folds);
  assert.equal(folds.get("É"), "e");
  assert.equal(folds.get("é"), "e");
  assert.equal(folds.get("Σ"), "σ");
  assert.equal(folds.get("🏦"), "🏦");
  assert.equal(folds.size, 5);
});
