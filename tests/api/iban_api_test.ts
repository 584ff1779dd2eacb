import { soleGrant } from "../../src/server/auth/role_grants.ts";
import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import registry from "../../db/seed/iban_registry_r102.json" with { type: "json" };
import { auditTrail, ibanConfigs, SYSTEM_USER_ID } from "../../db/schema.ts";
import { createUser } from "../../src/server/auth/users.ts";
import { openDatabase } from "../../src/server/db/database.ts";
import { FORMAT_RECHECK_MS } from "../../src/server/features/iban/format_cache.ts";
import { ibanRegistrySeeder } from "../../src/server/features/iban/seed.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";
import { ibanWithCheckDigits, insertInstitution } from "./codes_helpers.ts";

const SEEDED_COUNTRY_COUNT = 89;

async function auditRows(t: Awaited<ReturnType<typeof createTestApp>>, entityType: string) {
  return await t.deps.db.read.select().from(auditTrail).where(eq(auditTrail.entityType, entityType)).all();
}

Deno.test("GET /api/iban-configs lists the 89 countries of registry release 102 with their seeded fields", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const configs = await expectJson(await req("GET", "/api/iban-configs"), 200);
    assert.equal(configs.length, SEEDED_COUNTRY_COUNT);
    assert.deepEqual(
      configs.map((c: { countryCode: string }) => c.countryCode),
      registry.map((e) => e.countryCode),
    );
    const gb = configs.find((c: { countryCode: string }) => c.countryCode === "GB");
    const { id, createdAt, updatedAt, ...fields } = gb;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(createdAt, updatedAt);
    assert.deepEqual(fields, {
      countryCode: "GB",
      countryName: "United Kingdom",
      ibanLength: 22,
      bankCodeLength: 4,
      accountNumberLength: 8,
      structure: "4!a6!n8!n",
      bankCodeOffset: 0,
      branchCodeOffset: 4,
      branchCodeLength: 6,
      accountNumberOffset: 10,
      sepa: true,
      registryRelease: "102 (June 2026)",
      checkDigitAlgorithm: "mod97",
      exampleIban: "GB29NWBK60161331926819",
      status: "active",
      createdBy: SYSTEM_USER_ID,
    });
    for (const entry of registry) {
      const config = configs.find((c: { countryCode: string }) => c.countryCode === entry.countryCode);
      assert.equal(config.structure, entry.bbanStructure, entry.countryCode);
      assert.equal(config.ibanLength, entry.ibanLength, entry.countryCode);
      assert.equal(config.exampleIban, entry.exampleIban, entry.countryCode);
    }
  } finally {
    await t.close();
  }
});

Deno.test("the IBAN reference seed is audited by the system user and a second run changes nothing", async () => {
  const t = await createTestApp();
  try {
    const audits = await auditRows(t, "iban_config");
    assert.equal(audits.length, SEEDED_COUNTRY_COUNT);
    assert(audits.every((row) => row.action === "seed" && row.performedBy === SYSTEM_USER_ID));
    const lines: string[] = [];
    await ibanRegistrySeeder(t.deps, (line) => lines.push(line), () => {});
    assert.deepEqual(lines, []);
    assert.equal((await t.deps.db.read.select().from(ibanConfigs).all()).length, SEEDED_COUNTRY_COUNT);
    assert.equal((await auditRows(t, "iban_config")).length, SEEDED_COUNTRY_COUNT);
  } finally {
    await t.close();
  }
});

Deno.test("every seeded example IBAN validates through POST /api/iban/validate with its parts", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    for (const entry of registry) {
      const result = await expectJson(
        await req("POST", "/api/iban/validate", { body: { iban: entry.exampleIban } }),
        200,
      );
      const bban = entry.exampleIban.slice(4);
      assert.deepEqual(result, {
        valid: true,
        details: {
          countryCode: entry.countryCode,
          checkDigits: entry.exampleIban.slice(2, 4),
          bankCode: bban.slice(entry.bankCodeOffset, entry.bankCodeOffset + entry.bankCodeLength),
          branchCode: entry.branchCodeOffset === null
            ? null
            : bban.slice(entry.branchCodeOffset, entry.branchCodeOffset + entry.branchCodeLength),
          accountNumber: bban.slice(entry.accountNumberOffset),
          electronic: entry.exampleIban,
          print: entry.exampleIban.replace(/(.{4})(?=.)/g, "$1 "),
          error: null,
        },
      }, entry.countryCode);
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/iban/validate answers 200 with the exact error for each invalid IBAN", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const cases: [string, string][] = [
      ["", "IBAN is empty"],
      ["   ", "IBAN is empty"],
      ["1234567890", 'IBAN must start with a two-letter country code, got "12"'],
      ["DZ580002100001113000000570", "Unknown country code DZ: DZ has no IBAN format"],
      ["US64SVBKUS6S3300958879", "Unknown country code US: US has no IBAN format"],
      ["GB29NWBK6016133192681", "expected 22 characters for GB, got 21"],
      ["GB29NWBK601613319268190", "expected 22 characters for GB, got 23"],
      ["GBAANWBK60161331926819", 'check digits must be two digits, got "AA"'],
      ["GB00NWBK60161331926819", "check digits must be between 02 and 98, got 00"],
      ["GB99NWBK60161331926819", "check digits must be between 02 and 98, got 99"],
      [
        "GB29NWB160161331926819",
        'BBAN character class wrong at position 8: expected a letter (A-Z), got "1"',
      ],
      [
        "GB29NWBK6016133192681X",
        'BBAN character class wrong at position 22: expected a digit (0-9), got "X"',
      ],
      ["GB28NWBK60161331926819", "wrong check digits"],
      ["GB29NWBK60161331926891", "wrong check digits"],
      [ibanWithCheckDigits("BE", "539007547035"), "national check digit wrong for BE"],
      [ibanWithCheckDigits("ES", "21000418450200051331"), "national check digit wrong for ES"],
      // Characters before length, named with their position; only a-z is upper-cased.
      [
        "FR76/1213/5003/0008/0013/0194/760",
        'invalid character "/" (U+002F) at position 5: an IBAN holds only letters A-Z and digits 0-9',
      ],
      [
        "DE89 3704 0044\u00ad0532 0130 00",
        'invalid character "\u00ad" (U+00AD) at position 13: an IBAN holds only letters A-Z and digits 0-9',
      ],
      [
        "DE89370400440532\u200d013000",
        'invalid character "\u200d" (U+200D) at position 17: an IBAN holds only letters A-Z and digits 0-9',
      ],
      [
        "\u017FE4550000000058398257466",
        'invalid character "\u017f" (U+017F) at position 1: an IBAN holds only letters A-Z and digits 0-9',
      ],
      [
        "\u0131T60X0542811101000000123456",
        'invalid character "\u0131" (U+0131) at position 1: an IBAN holds only letters A-Z and digits 0-9',
      ],
      [
        "\uFB012112345600000785",
        'invalid character "\ufb01" (U+FB01) at position 1: an IBAN holds only letters A-Z and digits 0-9',
      ],
    ];
    for (const [iban, error] of cases) {
      const result = await expectJson(await req("POST", "/api/iban/validate", { body: { iban } }), 200);
      assert.equal(result.valid, false, iban);
      assert.equal(result.details.error, error, iban);
      assert.equal(result.details.institution, undefined, iban);
    }
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/iban/validate accepts the print form, lower case and a leading IBAN word", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const result = await expectJson(
      await req("POST", "/api/iban/validate", { body: { iban: "  iban: gb29 nwbk 6016 1331 9268 19 " } }),
      200,
    );
    assert.equal(result.valid, true);
    assert.equal(result.details.electronic, "GB29NWBK60161331926819");
    assert.equal(result.details.print, "GB29 NWBK 6016 1331 9268 19");
    assert.equal(result.details.bankCode, "NWBK");
    assert.equal(result.details.branchCode, "601613");
    assert.equal(result.details.accountNumber, "31926819");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/iban/validate answers 400 only for a missing or non-string iban", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const missing = await expectJson(await req("POST", "/api/iban/validate", { body: {} }), 400);
    assert.deepEqual(missing.fields, { iban: "Required" });
    for (const iban of [null, 12345, ["GB29NWBK60161331926819"], { iban: "x" }, true]) {
      const res = await expectJson(await req("POST", "/api/iban/validate", { body: { iban } }), 400);
      assert.equal(res.code, "validation");
      assert.ok(res.fields.iban);
    }
    const anyString = await expectJson(
      await req("POST", "/api/iban/validate", { body: { iban: "not an iban" } }),
      200,
    );
    assert.equal(anyString.valid, false);
    const anonymous = await t.request("POST", "/api/iban/validate", {
      body: { iban: "GB29NWBK60161331926819" },
    });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("details.institution names the institution whose registered BIC matches the IBAN's letter bank code", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const westminster = await insertInstitution(t, "Westminster Clearing Bank");
    const seychelles = await insertInstitution(t, "Seychelles Savings Bank");
    const other = await insertInstitution(t, "Irish Other Bank");
    const register = async (institutionId: string, bicCode: string, extra: Record<string, unknown> = {}) =>
      await expectJson(
        await req("POST", "/api/swift-codes", { body: { institutionId, bicCode, ...extra } }),
        201,
      );
    await register(westminster, "NWBKGB2L001");
    await register(westminster, "NWBKGB2L");
    await register(seychelles, "SSCBSCSC");
    await register(other, "NWBKIE2D");
    await register(other, "ABNANL2A", { validFrom: "2020-01-01", validUntil: "2021-01-01" });

    const validate = async (iban: string) =>
      await expectJson(await req("POST", "/api/iban/validate", { body: { iban } }), 200);

    const gb = await validate("GB29NWBK60161331926819");
    assert.deepEqual(gb.details.institution, {
      id: westminster,
      name: "Westminster Clearing Bank",
      bicCode: "NWBKGB2L",
    });
    // The bank code "SSCB11" is longer than a party prefix: its first four letters are compared.
    const sc = await validate("SC18SSCB11010000000000001497USD");
    assert.deepEqual(sc.details.institution, {
      id: seychelles,
      name: "Seychelles Savings Bank",
      bicCode: "SSCBSCSC",
    });
    // Expired BIC: no institution.
    assert.equal((await validate("NL91ABNA0417164300")).details.institution, undefined);
    // Numeric national bank codes are never matched.
    assert.equal((await validate("DE89370400440532013000")).details.institution, undefined);
    // An invalid IBAN names no institution, even when its bank code matches.
    const wrong = await validate("GB28NWBK60161331926819");
    assert.equal(wrong.valid, false);
    assert.equal(wrong.details.bankCode, "NWBK");
    assert.equal(wrong.details.institution, undefined);
  } finally {
    await t.close();
  }
});

/** A made-up format for Algeria (an ISO country without an IBAN), with a valid example. */
function algeriaFormat() {
  return {
    countryCode: "DZ",
    countryName: "Algeria",
    ibanLength: 24,
    structure: "3!n5!n12!n",
    bankCodeOffset: 0,
    bankCodeLength: 3,
    branchCodeOffset: 3,
    branchCodeLength: 5,
    accountNumberLength: 12,
    exampleIban: ibanWithCheckDigits("DZ", "00400174401001050486"),
  };
}

Deno.test("POST /api/iban-configs adds a country format that validation uses at once, audited", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const format = algeriaFormat();
    assert.equal(
      (await expectJson(await req("POST", "/api/iban/validate", { body: { iban: format.exampleIban } }), 200))
        .valid,
      false,
    );
    const created = await expectJson(await req("POST", "/api/iban-configs", { body: format }), 201);
    assert.equal(created.countryCode, "DZ");
    assert.equal(created.accountNumberOffset, 8);
    assert.equal(created.checkDigitAlgorithm, "mod97");
    assert.equal(created.status, "active");
    assert.equal(created.sepa, false);
    assert.equal(created.registryRelease, null);
    const result = await expectJson(
      await req("POST", "/api/iban/validate", { body: { iban: format.exampleIban } }),
      200,
    );
    assert.equal(result.valid, true);
    assert.equal(result.details.bankCode, "004");
    assert.equal(result.details.branchCode, "00174");
    assert.equal(result.details.accountNumber, "401001050486");
    const list = await expectJson(await req("GET", "/api/iban-configs"), 200);
    assert.equal(list.length, SEEDED_COUNTRY_COUNT + 1);
    assert.equal(list[0].countryCode, "DZ", "the newest format is listed first");
    const audits = (await auditRows(t, "iban_config")).filter((row) => row.action === "create");
    assert.equal(audits.length, 1);
    assert.equal(audits[0].entityId, created.id);
    assert.deepEqual((audits[0].changes as { after: unknown }).after, created);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/iban-configs refuses a broken structure, a failing example, a duplicate country and non-admins", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const post = (body: unknown) => req("POST", "/api/iban-configs", { body });

    const badStructure = await expectJson(await post({ ...algeriaFormat(), structure: "3!n5!x12!n" }), 400);
    assert.equal(
      badStructure.fields.structure,
      'BBAN structure "3!n5!x12!n" has unknown character class "x" at position 6 (expected n, a or c)',
    );
    const wrongLength = await expectJson(await post({ ...algeriaFormat(), ibanLength: 25 }), 400);
    assert.match(wrongLength.message, /IBAN length 25 does not match BBAN structure "3!n5!n12!n"/);
    const badExample = await expectJson(
      await post({ ...algeriaFormat(), exampleIban: "DZ0000400174401001050486" }),
      400,
    );
    assert.match(badExample.fields.exampleIban, /^example IBAN DZ0000400174401001050486 does not validate: /);
    const notACountry = await expectJson(await post({ ...algeriaFormat(), countryCode: "ZZ" }), 400);
    assert.equal(notACountry.fields.countryCode, "Not an ISO 3166-1 country code (or XK)");
    // A dotless i is not an I: "ıe" would otherwise become Ireland's IE (here a 409, in the path a change of IE).
    const lookAlike = await expectJson(await post({ ...algeriaFormat(), countryCode: "\u0131e" }), 400);
    assert.equal(lookAlike.fields.countryCode, "Must be two letters");
    const lookAlikePath = await expectJson(
      await req("PATCH", `/api/iban-configs/${encodeURIComponent("\u0131e")}`, {
        body: { status: "inactive" },
      }),
      400,
    );
    assert.equal(lookAlikePath.fields.countryCode, "Must be two letters");
    const missing = await expectJson(await post({ countryCode: "DZ" }), 400);
    for (const field of ["ibanLength", "structure", "bankCodeLength", "accountNumberLength", "exampleIban"]) {
      assert.equal(missing.fields[field], "Required", field);
    }

    const duplicate = await expectJson(await post({ ...algeriaFormat(), ...gbFormatBody() }), 409);
    assert.equal(duplicate.field, "countryCode");
    assert.equal(duplicate.message, "An IBAN format for GB already exists");

    await createUser(t.deps.db, t.deps.config, {
      email: "clerk@centralbank.test",
      password: "quiet-harbour-ledger-1",
      roles: ["operator"],
    }, soleGrant(null));
    const clerk = t.as(await t.login("clerk@centralbank.test", "quiet-harbour-ledger-1"));
    const forbidden = await expectJson(
      await clerk("POST", "/api/iban-configs", { body: algeriaFormat() }),
      403,
    );
    assert.equal(forbidden.message, "Only administrators can change IBAN formats");
    await expectJson(await clerk("PATCH", "/api/iban-configs/GB", { body: { status: "inactive" } }), 403);
    assert.equal((await auditRows(t, "iban_config")).filter((row) => row.action !== "seed").length, 0);
  } finally {
    await t.close();
  }
});

function gbFormatBody() {
  return {
    countryCode: "GB",
    ibanLength: 22,
    structure: "4!a6!n8!n",
    bankCodeLength: 4,
    branchCodeOffset: 4,
    branchCodeLength: 6,
    accountNumberLength: 8,
    exampleIban: "GB29NWBK60161331926819",
  };
}

Deno.test("PATCH /api/iban-configs/{countryCode} corrects a format, applies at once and audits before and after", async () => {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const validate = async (iban: string) =>
      await expectJson(await req("POST", "/api/iban/validate", { body: { iban } }), 200);
    assert.equal((await validate("GB29NWBK60161331926819")).valid, true);

    const inactive = await expectJson(
      await req("PATCH", "/api/iban-configs/gb", { body: { status: "inactive" } }),
      200,
    );
    assert.equal(inactive.status, "inactive");
    assert.equal(
      (await validate("GB29NWBK60161331926819")).details.error,
      "IBAN format for GB is not active",
    );

    const restored = await expectJson(
      await req("PATCH", "/api/iban-configs/GB", {
        body: { status: "active", countryName: "United Kingdom of Great Britain" },
      }),
      200,
    );
    assert.equal(restored.countryName, "United Kingdom of Great Britain");
    assert(restored.updatedAt > restored.createdAt);
    assert.equal((await validate("GB29NWBK60161331926819")).valid, true);

    const audits = (await auditRows(t, "iban_config")).filter((row) => row.action === "update");
    assert.equal(audits.length, 2);
    const changes = audits[0].changes as { before: { status: string }; after: { status: string } };
    assert.equal(changes.before.status, "active");
    assert.equal(changes.after.status, "inactive");

    const inconsistent = await expectJson(
      await req("PATCH", "/api/iban-configs/GB", { body: { structure: "4!a6!n9!n" } }),
      400,
    );
    assert.match(inconsistent.message, /IBAN length 22 does not match BBAN structure "4!a6!n9!n"/);
    const badExample = await expectJson(
      await req("PATCH", "/api/iban-configs/GB", { body: { exampleIban: "GB28NWBK60161331926819" } }),
      400,
    );
    assert.equal(
      badExample.fields.exampleIban,
      "example IBAN GB28NWBK60161331926819 does not validate: wrong check digits",
    );
    const renamed = await expectJson(
      await req("PATCH", "/api/iban-configs/GB", { body: { countryCode: "XK" } }),
      400,
    );
    assert.equal(renamed.code, "validation");
    await expectJson(await req("PATCH", "/api/iban-configs/GB", { body: {} }), 400);
    await expectJson(await req("PATCH", "/api/iban-configs/DZ", { body: { status: "inactive" } }), 404);
    assert.equal((await auditRows(t, "iban_config")).filter((row) => row.action === "update").length, 2);
    assert.equal((await validate("GB29NWBK60161331926819")).valid, true);
  } finally {
    await t.close();
  }
});

Deno.test("a format change written by another process reaches validation within the recheck interval", async () => {
  const t = await createTestApp();
  const other = await openDatabase(t.deps.db.url);
  try {
    const req = t.as(await t.login());
    const validate = async () =>
      await expectJson(
        await req("POST", "/api/iban/validate", { body: { iban: "GB29NWBK60161331926819" } }),
        200,
      );
    assert.equal((await validate()).valid, true);
    await other.readClient.execute("UPDATE iban_configs SET status = 'inactive' WHERE country_code = 'GB'");
    await new Promise((resolve) => setTimeout(resolve, FORMAT_RECHECK_MS + 50));
    assert.equal((await validate()).details.error, "IBAN format for GB is not active");
    const [{ version }] = await t.deps.db.read.all<{ version: number }>(
      sql`SELECT version FROM iban_configs_version`,
    );
    assert(version > SEEDED_COUNTRY_COUNT);
  } finally {
    other.close();
    await t.close();
  }
});
