/**
 * Issue 24: a substring search with common trigrams ("LIC-", "Bank ") is looked up by its rare piece
 * and checked on the rows found (narrowed_search.ts); it must answer exactly as the whole phrase in
 * the index does, page by page and in total.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import {
  COMMON_TRIGRAM_SHARE,
  narrowingPiece,
  TrigramShares,
} from "../../src/server/features/institutions/narrowed_search.ts";
import { insertInstitution, listInstitutions } from "../../src/server/features/institutions/service.ts";
import { createTestApp } from "../helpers/test_app.ts";

/** Shares given outright: "x" is common, every other trigram rare. */
const fixedShares = {
  share: (trigram: string) => Promise.resolve(trigram.includes("x") ? 0.5 : 0.001),
};

Deno.test("narrowingPiece() picks the longest run of trigrams none of which is common", async () => {
  assert.equal(await narrowingPiece(fixedShares, "xxab1234"), "ab1234");
  assert.equal(await narrowingPiece(fixedShares, "ab1x12345x9"), "12345");
  // The first of two runs of the same length.
  assert.equal(await narrowingPiece(fixedShares, "abcxdef"), "abc");
  // Nothing to leave out, nothing to keep, or too short to have two trigrams.
  assert.equal(await narrowingPiece(fixedShares, "abcdef"), null);
  assert.equal(await narrowingPiece(fixedShares, "axbxcx"), null);
  assert.equal(await narrowingPiece(fixedShares, "xab"), null);
  // Code points, not UTF-16 units: "é" and "😀" are one character each.
  assert.equal(await narrowingPiece(fixedShares, "xxé😀ab"), "é😀ab");
  assert.equal(await narrowingPiece(fixedShares, `x${"a".repeat(70)}`), null);
});

const INSTITUTIONS = 5_000;
const SPECIAL_NAMES = [
  "Crédit Maritime Bank 12",
  "CREDIT MARITIME BANK 1234",
  'The "Quoted" Bank 77',
  "Banque Élan 4412",
  "Harbor Savings Bank 9600",
];

Deno.test("a search narrowed to its rare piece answers exactly as the whole phrase, for every page", async () => {
  const t = await createTestApp();
  try {
    // Triggers keep both search indexes in step, as for any registration.
    await t.deps.db.transaction(async (tx) => {
      await tx.run(
        sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${INSTITUTIONS})
        INSERT INTO institutions (id, name, type, registration_number, license_number, address, phone_number,
          email_address, number_of_branches, swift_participant, swift_membership_type, status, created_at,
          updated_at, created_by)
        SELECT printf('00000000-0000-4000-8000-%012x', i),
          CASE i % 3 WHEN 0 THEN 'Harbor Savings Bank ' WHEN 1 THEN 'National Trust Bank ' ELSE 'Crédit Union ' END || i,
          'commercial', printf('CBR-%05d', i), CASE WHEN i % 5 = 0 THEN NULL ELSE 'LIC-' || (i % 250) END,
          '1 Main Street', '+1 202 555 0100', 'compliance' || i || '@harbor.example', 1, 0, NULL, 'active',
          strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch'),
          strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i, 'unixepoch'), ${SYSTEM_USER_ID}
        FROM n`,
      );
      for (const [k, name] of SPECIAL_NAMES.entries()) {
        await insertInstitution(tx, { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null }, {
          name,
          type: "commercial",
          registrationNumber: `SPECIAL-${k}`,
          licenseNumber: `LIC-${k}`,
          address: "1 Main Street",
          phoneNumber: "+1 202 555 0100",
          emailAddress: `Desk${k}@Élan.example`,
          numberOfBranches: 1,
          swiftParticipant: false,
          swiftMembershipType: null,
        });
      }
    });
    const shares = new TrigramShares(t.deps.db.statements);
    assert.ok(await shares.share("lic") > COMMON_TRIGRAM_SHARE, "every licence starts with LIC-");
    assert.equal(await shares.share("zzz"), 0);

    const texts = [
      "LIC-7", // "C-7" is in about 4% of the rows: more candidates than are checked, so the index answers
      "LIC-12",
      "LIC-123",
      "LIC-249",
      "LIC-0",
      "lic-1", // case
      "Bank 12",
      "Bank 1234",
      "BANK 4999",
      "Savings Bank 300",
      "Credit Maritime", // accents folded both ways
      "crédit maritime bank 12",
      "Crédit Union 4",
      'Bank "Quoted"', // no match: the quotes are in the name, the order is not
      '"Quoted" Bank 7',
      "Banque Elan 44",
      "compliance123@harbor",
      "COMPLIANCE4999@HARBOR.EXAMPLE",
      "desk3@elan.example",
      "CBR-0012",
      "nothing-here-123",
    ];
    let narrowed = 0;
    for (const search of texts) {
      if (await narrowingPiece(shares, search) !== null) narrowed++;
      for (const [limit, offset] of [[100, 0], [1, 0], [3, 2], [10, 40], [100, 10_000]]) {
        const query = { search, limit, offset };
        const plain = await listInstitutions(t.deps.db.read, query);
        const byPiece = await listInstitutions(t.deps.db.read, query, undefined, undefined, shares);
        assert.deepEqual(
          { total: byPiece.total, ids: byPiece.items.map((i) => i.id) },
          { total: plain.total, ids: plain.items.map((i) => i.id) },
          `${JSON.stringify(search)} limit ${limit} offset ${offset}`,
        );
        assert.deepEqual(byPiece.items, plain.items);
      }
    }
    assert.ok(narrowed >= texts.length / 2, `only ${narrowed} of ${texts.length} texts were narrowed`);
  } finally {
    await t.close();
  }
});
