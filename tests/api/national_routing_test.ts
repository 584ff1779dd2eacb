import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { CONSOLE_CENTRAL_BANK_CODE } from "../../src/domain/national_routing.ts";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { nationalRoutingDemoSeeder } from "../../src/server/features/national_routing/seed.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

/** The IBAN registry rows these tests rely on, whether or not the reference seed has run. */
async function ensureIbanCountries(t: TestApp, ...countryCodes: string[]) {
  for (const countryCode of countryCodes) {
    await t.deps.db.transaction((tx) =>
      tx.run(
        sql`INSERT INTO iban_configs (id, country_code, iban_length, bank_code_length, account_number_length, structure)
        VALUES (${crypto.randomUUID()}, ${countryCode}, 22, 8, 10, 'n8n10') ON CONFLICT (country_code) DO NOTHING`,
      )
    );
  }
}

let serial = 0;
function entryBody(overrides: Record<string, unknown> = {}) {
  serial += 1;
  return {
    centralBankCode: CONSOLE_CENTRAL_BANK_CODE,
    institutionType: "commercial_bank",
    registryNumber: `REG-${serial}`,
    institutionName: `Harbour Commercial Bank ${serial}`,
    nationalBankCode: `NB${serial}`,
    accountNumberFormat: "10-digit",
    connectionProtocol: "iso20022",
    connectionDetails: { messageFormats: ["iso20022"], currencies: ["USD"], settlementFrequency: "daily" },
    ...overrides,
  };
}

async function countAudit(t: TestApp, entityType: string): Promise<number> {
  const rows = await t.deps.db.read.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM audit_trail WHERE entity_type = ${entityType}`,
  );
  return rows[0].n;
}

Deno.test("POST /api/national-routing answers 201 with the entry, its defaults and an assigned central bank code", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: req.operatorCookie }), 200);
    const body = entryBody();
    delete (body as Record<string, unknown>).accountNumberFormat;
    delete (body as Record<string, unknown>).connectionProtocol;
    const entry = await expectJson(await req("POST", "/api/national-routing", { body }), 201);
    assert.equal(entry.centralBankCode, "CBR001");
    assert.equal(entry.accountNumberFormat, "10-digit");
    assert.equal(entry.connectionProtocol, "iso20022");
    assert.equal(entry.participantStatus, "active");
    assert.equal(entry.registeredBy, me.id);
    assert.equal(entry.ibanPrefix, null);
    assert.equal(entry.swiftBicCode, null);
    assert.deepEqual(entry.connectionDetails, body.connectionDetails);
    assert.match(entry.registrationDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(await countAudit(t, "national_routing_entry"), 1);
    const list = await expectJson(await req("GET", "/api/national-routing"), 200);
    assert.deepEqual(list, [{ ...entry, pendingChanges: [] }]);
  } finally {
    await t.close();
  }
});

Deno.test("three registrations in a row with the console's fixed code all succeed with CBR001, CBR002, CBR003, listed newest first", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const entry = await expectJson(await req("POST", "/api/national-routing", { body: entryBody() }), 201);
      codes.push(entry.centralBankCode);
    }
    assert.deepEqual(codes, ["CBR001", "CBR002", "CBR003"]);
    const list = await expectJson(await req("GET", "/api/national-routing"), 200);
    assert.deepEqual(list.map((entry: { centralBankCode: string }) => entry.centralBankCode), [
      "CBR003",
      "CBR002",
      "CBR001",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("the issuer prefix comes from the submitted code, or CENTRAL_BANK_CODE_PREFIX when none is sent", async () => {
  const t = await createTestApp({ CENTRAL_BANK_CODE_PREFIX: "NRB" });
  try {
    const req = await t.desk();
    const other = await expectJson(
      await req("POST", "/api/national-routing", { body: entryBody({ centralBankCode: "xyz999" }) }),
      201,
    );
    assert.equal(other.centralBankCode, "XYZ001");
    const body = entryBody();
    delete (body as Record<string, unknown>).centralBankCode;
    const configured = await expectJson(await req("POST", "/api/national-routing", { body }), 201);
    assert.equal(configured.centralBankCode, "NRB001");
  } finally {
    await t.close();
  }
});

Deno.test("an issuer prefix whose 999 codes are used up answers 409 naming centralBankCode; other prefixes still work", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    await t.deps.db.transaction((tx) =>
      tx.run(sql`INSERT INTO central_bank_code_sequences (prefix, last_value) VALUES ('CBR', 999)`)
    );
    const res = await req("POST", "/api/national-routing", { body: entryBody() });
    const error = await expectJson(res, 409);
    assert.equal(error.field, "centralBankCode");
    assert.match(error.message, /All central bank codes CBR001–CBR999 are assigned/);
    const other = await expectJson(
      await req("POST", "/api/national-routing", { body: entryBody({ centralBankCode: "ABC001" }) }),
      201,
    );
    assert.equal(other.centralBankCode, "ABC001");
  } finally {
    await t.close();
  }
});

Deno.test("a central bank code already present (imported data) is skipped by the sequence", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    await t.deps.db.transaction((tx) =>
      tx.run(sql`INSERT INTO national_routing_registry
        (id, central_bank_code, institution_type, registry_number, institution_name, national_bank_code, account_number_format)
        VALUES (${crypto.randomUUID()}, 'CBR001', 'central_bank', 'IMPORTED-1', 'Imported Bank', 'IMP1', '10-digit')`)
    );
    const entry = await expectJson(await req("POST", "/api/national-routing", { body: entryBody() }), 201);
    assert.equal(entry.centralBankCode, "CBR002");
  } finally {
    await t.close();
  }
});

Deno.test("without connectionDetails the server stores the spec 5 default derived from the BIC and IBAN prefix", async () => {
  const t = await createTestApp();
  try {
    await ensureIbanCountries(t, "DE");
    const req = await t.desk();
    const withBoth = entryBody({ swiftBicCode: "DEUTDEFF", ibanPrefix: "DE" });
    delete (withBoth as Record<string, unknown>).connectionDetails;
    const a = await expectJson(await req("POST", "/api/national-routing", { body: withBoth }), 201);
    assert.deepEqual(a.connectionDetails, {
      messageFormats: ["iso20022", "swift_mt103"],
      currencies: ["USD", "EUR"],
      settlementFrequency: "real-time",
      swiftIntegration: true,
      ibanCompliant: true,
    });
    const b = await expectJson(
      await req("POST", "/api/national-routing", { body: entryBody({ connectionDetails: null }) }),
      201,
    );
    assert.equal(b.connectionDetails.swiftIntegration, false);
    assert.equal(b.connectionDetails.ibanCompliant, false);
  } finally {
    await t.close();
  }
});

Deno.test("an IBAN prefix is upper-cased and accepted when its country is in the IBAN registry", async () => {
  const t = await createTestApp();
  try {
    await ensureIbanCountries(t, "DE", "GB");
    const req = await t.desk();
    const de = await expectJson(
      await req("POST", "/api/national-routing", { body: entryBody({ ibanPrefix: "de89" }) }),
      201,
    );
    assert.equal(de.ibanPrefix, "DE89");
    const gb = await expectJson(
      await req("POST", "/api/national-routing", {
        body: entryBody({ ibanPrefix: "GB", swiftBicCode: "NWBKGB2LXXX" }),
      }),
      201,
    );
    assert.equal(gb.ibanPrefix, "GB");
    assert.equal(gb.swiftBicCode, "NWBKGB2LXXX");
  } finally {
    await t.close();
  }
});

Deno.test("invalid registrations answer 400 with the field and reason, and store nothing", async () => {
  const t = await createTestApp();
  try {
    await ensureIbanCountries(t, "DE");
    const req = await t.desk();
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ["missing registry number", { registryNumber: undefined }, "registryNumber", /^Required$/],
      ["blank registry number", { registryNumber: "   " }, "registryNumber", /^Required$/],
      ["registry number over 20", { registryNumber: "R".repeat(21) }, "registryNumber", /20/],
      ["missing institution name", { institutionName: undefined }, "institutionName", /^Required$/],
      ["institution name over 255", { institutionName: "N".repeat(256) }, "institutionName", /255/],
      ["unknown institution type", { institutionType: "savings" }, "institutionType", /central_bank/],
      ["missing institution type", { institutionType: undefined }, "institutionType", /central_bank/],
      ["missing national bank code", { nationalBankCode: undefined }, "nationalBankCode", /^Required$/],
      ["national bank code over 8", { nationalBankCode: "123456789" }, "nationalBankCode", /8/],
      [
        "unknown account number format",
        { accountNumberFormat: "9-digit" },
        "accountNumberFormat",
        /10-digit/,
      ],
      ["unknown connection protocol", { connectionProtocol: "sepa" }, "connectionProtocol", /iso20022/],
      ["IBAN prefix over 4", { ibanPrefix: "DE891" }, "ibanPrefix", /4/],
      ["IBAN prefix not a country code", { ibanPrefix: "D1" }, "ibanPrefix", /2-letter country code/],
      [
        "IBAN prefix of a country outside the registry",
        { ibanPrefix: "ZZ" },
        "ibanPrefix",
        /ZZ is not a country of the IBAN registry/,
      ],
      [
        "BIC of 9 characters",
        { swiftBicCode: "DEUTDEFF5" },
        "swiftBicCode",
        /BIC must be 8 or 11 characters, got 9/,
      ],
      ["BIC in lower case", { swiftBicCode: "deutdeff" }, "swiftBicCode", /BIC must be upper case/],
      [
        "BIC with an unknown country",
        { swiftBicCode: "DEUTZZFF" },
        "swiftBicCode",
        /ZZ is not an ISO 3166-1 country/,
      ],
      [
        "central bank code without a letter prefix",
        { centralBankCode: "123456" },
        "centralBankCode",
        /3-letter issuer prefix/,
      ],
      ["central bank code over 6", { centralBankCode: "CBR0001" }, "centralBankCode", /6/],
      [
        "connection details as an array",
        { connectionDetails: [1, 2] },
        "connectionDetails",
        /object|record/i,
      ],
      ["connection details as text", { connectionDetails: '{"a":1}' }, "connectionDetails", /object|record/i],
      [
        "connection details over 16 KiB",
        { connectionDetails: { notes: "x".repeat(17_000) } },
        "connectionDetails",
        /16384 bytes/,
      ],
    ];
    const failures: string[] = [];
    for (const [name, overrides, field, message] of cases) {
      const res = await req("POST", "/api/national-routing", { body: entryBody(overrides) });
      const text = await res.text();
      const error = JSON.parse(text);
      if (res.status !== 400 || error.code !== "validation" || !message.test(error.fields?.[field] ?? "")) {
        failures.push(`${name}: ${res.status} ${text}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(await expectJson(await req("GET", "/api/national-routing"), 200), []);
    assert.equal(await countAudit(t, "national_routing_entry"), 0);
  } finally {
    await t.close();
  }
});

Deno.test("a duplicate registry number or national bank code answers 409 naming the field and consumes no code", async () => {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    const first = await expectJson(
      await req("POST", "/api/national-routing", {
        body: entryBody({ registryNumber: "REG-DUP", nationalBankCode: "NBDUP" }),
      }),
      201,
    );
    assert.equal(first.centralBankCode, "CBR001");
    const sameRegistry = await expectJson(
      await req("POST", "/api/national-routing", { body: entryBody({ registryNumber: "REG-DUP" }) }),
      409,
    );
    assert.equal(sameRegistry.field, "registryNumber");
    assert.match(sameRegistry.message, /registryNumber REG-DUP is already registered/);
    const sameBankCode = await expectJson(
      await req("POST", "/api/national-routing", { body: entryBody({ nationalBankCode: "NBDUP" }) }),
      409,
    );
    assert.equal(sameBankCode.field, "nationalBankCode");
    const next = await expectJson(await req("POST", "/api/national-routing", { body: entryBody() }), 201);
    assert.equal(next.centralBankCode, "CBR002");
    assert.equal(await countAudit(t, "national_routing_entry"), 2);
  } finally {
    await t.close();
  }
});

Deno.test("GET and POST /api/national-routing answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    assert.equal((await t.request("GET", "/api/national-routing")).status, 401);
    assert.equal((await t.request("POST", "/api/national-routing", { body: entryBody() })).status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("the demo seed registers its participants once, audited as the system user", async () => {
  const t = await createTestApp({ SEED_DEMO: "1" });
  try {
    await nationalRoutingDemoSeeder(t.deps, () => {}, () => {});
    const req = await t.desk();
    const list = await expectJson(await req("GET", "/api/national-routing"), 200);
    const demo = list.filter((entry: { registryNumber: string }) => entry.registryNumber.startsWith("NRR-"));
    assert.equal(demo.length, 3);
    assert(demo.every((entry: { registeredBy: string }) => entry.registeredBy === SYSTEM_USER_ID));
    assert.equal(await countAudit(t, "national_routing_entry"), list.length);
  } finally {
    await t.close();
  }
});
