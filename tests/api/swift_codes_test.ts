import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { auditTrail, swiftCodes, SYSTEM_USER_ID } from "../../db/schema.ts";
import { swiftCodesDemoSeeder } from "../../src/server/features/swift_codes/seed.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { insertInstitution } from "./codes_helpers.ts";

function registerBody(institutionId: string, bicCode: string, extra: Record<string, unknown> = {}) {
  return { institutionId, bicCode, membershipType: "full", validFrom: null, validUntil: null, ...extra };
}

Deno.test("POST /api/swift-codes derives the BIC's parts, answers 201 with the record and is audited", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const before = new Date().toISOString();
    const created = await expectJson(
      await req("POST", "/api/swift-codes", {
        body: registerBody(institutionId, "DEUTDEFF500", { validUntil: "2030-12-31" }),
      }),
      201,
    );
    const { id, createdAt, updatedAt, createdBy, validFrom, ...fields } = created;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(createdAt, updatedAt);
    assert.ok(createdBy);
    assert(validFrom >= before, "validFrom defaults to now");
    assert.deepEqual(fields, {
      institutionId,
      bicCode: "DEUTDEFF500",
      bankCode: "DEUT",
      countryCode: "DE",
      locationCode: "FF",
      branchCode: "500",
      membershipType: "full",
      status: "active",
      validUntil: "2030-12-31T00:00:00.000Z",
      successorBic: null,
      terminatedAt: null,
      deletionAnnouncedAt: null,
      deletionAnnounced: false,
    });
    const primary = await expectJson(
      await req("POST", "/api/swift-codes", {
        body: registerBody(institutionId, " BNPAFRPP ", {
          membershipType: "",
          validFrom: "2024-01-15T09:30:00+01:00",
        }),
      }),
      201,
    );
    assert.equal(primary.bicCode, "BNPAFRPP");
    assert.equal(primary.branchCode, null);
    assert.equal(primary.membershipType, null);
    assert.equal(primary.validFrom, "2024-01-15T08:30:00.000Z");
    assert.equal(primary.validUntil, null);

    const audits = await t.deps.db.read.select().from(auditTrail).where(
      eq(auditTrail.entityType, "swift_code"),
    )
      .orderBy(auditTrail.seq).all();
    assert.deepEqual(audits.map((row) => [row.entityId, row.action]), [[created.id, "create"], [
      primary.id,
      "create",
    ]]);
    assert.deepEqual((audits[0].changes as { after: unknown }).after, created);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/swift-codes rejects invalid BICs with the precise reason in field bicCode", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const cases: [unknown, string][] = [
      ["", "BIC must be 8 or 11 characters, got 0"],
      ["DEUTDEF", "BIC must be 8 or 11 characters, got 7"],
      ["DEUTDEFF5", "BIC must be 8 or 11 characters, got 9"],
      ["DEUTDEFF5000", "BIC must be 8 or 11 characters, got 12"],
      ["deutdeff", "BIC must be upper case"],
      ["DEUTDEff500", "BIC must be upper case"],
      [
        "DE-TDEFF",
        'BIC has an invalid character "-" (U+002D) at position 3: a BIC holds only letters A-Z and digits 0-9',
      ],
      ["DEUT1EFF", 'BIC country code (characters 5-6) must be two letters, got "1E"'],
      ["DEUTZZFF", "BIC country code ZZ is not an ISO 3166-1 country"],
      [
        "DEUTDE_F",
        'BIC has an invalid character "_" (U+005F) at position 7: a BIC holds only letters A-Z and digits 0-9',
      ],
      [
        "DEUTDEFF5-0",
        'BIC has an invalid character "-" (U+002D) at position 10: a BIC holds only letters A-Z and digits 0-9',
      ],
      // Characters before length: spaces inside, an invisible joiner, a letter outside A-Z.
      [
        " ABNA BE 2A ",
        'BIC has an invalid character " " (U+0020) at position 5: a BIC holds only letters A-Z and digits 0-9',
      ],
      [
        "ABNABE\u200d2A",
        'BIC has an invalid character "\u200d" (U+200D) at position 7: a BIC holds only letters A-Z and digits 0-9',
      ],
      [
        "\u017FSCBSCSC",
        'BIC has an invalid character "\u017f" (U+017F) at position 1: a BIC holds only letters A-Z and digits 0-9',
      ],
      [undefined, "Required"],
    ];
    for (const [bicCode, message] of cases) {
      const res = await expectJson(
        await req("POST", "/api/swift-codes", { body: registerBody(institutionId, bicCode as string) }),
        400,
      );
      assert.deepEqual(res.fields, { bicCode: message }, String(bicCode));
    }
    assert.equal((await t.deps.db.read.select().from(swiftCodes).all()).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/swift-codes accepts digits in the party prefix (ISO 9362:2022), Kosovo's XK, test BICs and branch XXX", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const cases: [string, Record<string, string | null>][] = [
      ["1234GB2L", { bankCode: "1234", countryCode: "GB", locationCode: "2L", branchCode: null }],
      ["RBKOXKPR", { bankCode: "RBKO", countryCode: "XK", locationCode: "PR", branchCode: null }],
      ["TSTBGB20", { bankCode: "TSTB", countryCode: "GB", locationCode: "20", branchCode: null }],
      ["NWBKGB2LXXX", { bankCode: "NWBK", countryCode: "GB", locationCode: "2L", branchCode: "XXX" }],
    ];
    for (const [bicCode, parts] of cases) {
      const created = await expectJson(
        await req("POST", "/api/swift-codes", { body: registerBody(institutionId, bicCode) }),
        201,
      );
      assert.deepEqual(
        {
          bankCode: created.bankCode,
          countryCode: created.countryCode,
          locationCode: created.locationCode,
          branchCode: created.branchCode,
        },
        parts,
        bicCode,
      );
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/swift-codes answers 409 on bicCode for a duplicate, including the 8/11-character primary-office twin", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    await expectJson(
      await req("POST", "/api/swift-codes", { body: registerBody(institutionId, "NWBKGB2L") }),
      201,
    );
    const same = await expectJson(
      await req("POST", "/api/swift-codes", { body: registerBody(institutionId, "NWBKGB2L") }),
      409,
    );
    assert.equal(same.field, "bicCode");
    assert.equal(same.message, "BIC NWBKGB2L is already registered");
    const twin = await expectJson(
      await req("POST", "/api/swift-codes", { body: registerBody(institutionId, "NWBKGB2LXXX") }),
      409,
    );
    assert.deepEqual(twin.fields, { bicCode: "BIC NWBKGB2LXXX is already registered as NWBKGB2L" });
    await expectJson(
      await req("POST", "/api/swift-codes", { body: registerBody(institutionId, "NWBKGB2L001") }),
      201,
    );
    assert.equal((await t.deps.db.read.select().from(swiftCodes).all()).length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/swift-codes validates the institution, membership type and validity dates", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const post = (body: unknown) => req("POST", "/api/swift-codes", { body });
    const unknown = await expectJson(await post(registerBody(crypto.randomUUID(), "DEUTDEFF")), 400);
    assert.deepEqual(unknown.fields, { institutionId: "Institution not found" });
    const missing = await expectJson(await post({ bicCode: "DEUTDEFF" }), 400);
    assert.equal(missing.fields.institutionId, "Required");
    const membership = await expectJson(
      await post(registerBody(institutionId, "DEUTDEFF", { membershipType: "platinum" })),
      400,
    );
    assert.ok(membership.fields.membershipType);
    const badDate = await expectJson(
      await post(registerBody(institutionId, "DEUTDEFF", { validUntil: "31/12/2030" })),
      400,
    );
    assert.ok(badDate.fields.validUntil);
    const backwards = await expectJson(
      await post(
        registerBody(institutionId, "DEUTDEFF", { validFrom: "2026-01-01", validUntil: "2025-12-31" }),
      ),
      400,
    );
    assert.deepEqual(backwards.fields, { validUntil: "Must be later than validFrom" });
    assert.equal((await t.deps.db.read.select().from(swiftCodes).all()).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/swift-codes lists BICs newest first", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    assert.deepEqual(await expectJson(await req("GET", "/api/swift-codes"), 200), []);
    const created = [];
    for (const bic of ["DEUTDEFF", "BNPAFRPP", "ABNANL2A"]) {
      created.push(
        await expectJson(
          await req("POST", "/api/swift-codes", { body: registerBody(institutionId, bic) }),
          201,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.deepEqual(
      await expectJson(await req("GET", "/api/swift-codes"), 200),
      created.reverse().map((record) => ({ ...record, pendingChanges: [] })),
    );
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/swift-codes/{bic}: 200 when registered (also by its twin), 404 when unknown, 400 when invalid", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const institutionId = await insertInstitution(t);
    const created = await expectJson(
      await req("POST", "/api/swift-codes", { body: registerBody(institutionId, "NWBKGB2L") }),
      201,
    );
    const answer = { ...created, successor: null };
    assert.deepEqual(await expectJson(await req("GET", "/api/swift-codes/NWBKGB2L"), 200), answer);
    assert.deepEqual(await expectJson(await req("GET", "/api/swift-codes/NWBKGB2LXXX"), 200), answer);
    const unknown = await expectJson(await req("GET", "/api/swift-codes/DEUTDEFF"), 404);
    assert.equal(unknown.message, "BIC not found");
    assert.deepEqual((await expectJson(await req("GET", "/api/swift-codes/nwbkgb2l"), 400)).fields, {
      bic: "BIC must be upper case",
    });
    assert.deepEqual((await expectJson(await req("GET", "/api/swift-codes/NWBKQQ2L"), 400)).fields, {
      bic: "BIC country code QQ is not an ISO 3166-1 country",
    });
  } finally {
    await t.close();
  }
});

Deno.test("the BIC demo seed registers audited BICs for SWIFT participants once, and skips without any", async () => {
  const t = await createTestApp();
  try {
    const lines: string[] = [];
    await swiftCodesDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.deepEqual(lines, ["SWIFT/BIC demo: skipped, no SWIFT-participant institutions"]);
    await insertInstitution(t, "Not A Participant Bank");
    const harbor = await insertInstitution(t, "First National Bank of Harbor City", {
      swiftParticipant: true,
      swiftMembershipType: "full",
    });
    const sterling = await insertInstitution(t, "Sterling Capital Partners", {
      swiftParticipant: true,
      swiftMembershipType: "correspondent",
    });
    await swiftCodesDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.equal(lines[1], "SWIFT/BIC demo: registered 2 BICs");
    const rows = await t.deps.db.read.select().from(swiftCodes).all();
    assert.deepEqual(
      rows.map((row) => [row.institutionId, row.bicCode, row.membershipType]).sort(),
      [
        [harbor, "FNBOUS33", "full"],
        [sterling, "SCPSUS33", "correspondent"],
      ].sort(),
    );
    const audits = await t.deps.db.read.select().from(auditTrail).where(
      eq(auditTrail.entityType, "swift_code"),
    ).all();
    assert.equal(audits.length, 2);
    assert(audits.every((row) => row.performedBy === SYSTEM_USER_ID));
    await swiftCodesDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.equal(lines.length, 2);
  } finally {
    await t.close();
  }
});
