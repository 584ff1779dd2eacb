import assert from "node:assert/strict";
import { eq, sql } from "drizzle-orm";
import { auditTrail, institutions, institutionSearchKeys, SYSTEM_USER_ID } from "../../db/schema.ts";
import {
  INSTITUTION_STATUSES,
  INSTITUTION_TYPES,
  type InstitutionLifecycleStatus,
  type InstitutionStatus,
  SWIFT_MEMBERSHIP_TYPES,
} from "../../src/domain/institution.ts";
import { verifyAuditChain } from "../../src/server/audit/trail.ts";
import { DEMO_INSTITUTIONS, institutionsDemoSeeder } from "../../src/server/features/institutions/seed.ts";
import {
  createCountCache,
  insertInstitution,
  listInstitutions,
  totalFromPage,
} from "../../src/server/features/institutions/service.ts";
import { openDatabase } from "../../src/server/db/database.ts";
import { listMigrations, migrate, splitStatements } from "../../src/server/db/migrate.ts";
import { seededStaff } from "../helpers/staff.ts";
import { type Desk, createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

/** The spec's fields, with the registry's lifecycle and LEI (issue 33). */
const SPEC_FIELDS = [
  "address",
  "createdAt",
  "createdBy",
  "deletionAnnounced",
  "emailAddress",
  "id",
  "lei",
  "licenseNumber",
  "name",
  "numberOfBranches",
  "phoneNumber",
  "registrationNumber",
  "status",
  "successor",
  "successorId",
  "swiftMembershipType",
  "swiftParticipant",
  "terminatedAt",
  "type",
  "updatedAt",
];

let serial = 0;
function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  serial += 1;
  return {
    name: `Harbor Commercial Bank ${serial}`,
    type: "commercial",
    registrationNumber: `REG-${String(serial).padStart(6, "0")}`,
    licenseNumber: `LIC-${serial}`,
    address: "1 Harbor Plaza, Harbor City",
    phoneNumber: "+1 202 555 0100",
    emailAddress: `compliance${serial}@registry.example`,
    numberOfBranches: 3,
    swiftParticipant: false,
    ...overrides,
  };
}

async function withApp(fn: (t: TestApp, req: Desk) => Promise<void>) {
  const t = await createTestApp();
  try {
    const req = await t.desk();
    await fn(t, req);
  } finally {
    await t.close();
  }
}

/**
 * A status change under four-eyes control: the signed-in operator requests it (202), a second person
 * with the approver role approves it. Answers the approval (or the request's own refusal) as a Response.
 */
async function changeStatus(
  t: TestApp,
  req: ReturnType<TestApp["as"]>,
  approverCookie: string,
  id: string,
  status: string,
): Promise<Response> {
  const res = await req("PATCH", `/api/institutions/${id}/status`, {
    body: { status, requestReason: "Supervisory decision" },
  });
  if (res.status !== 202) return res;
  const pending = await res.json();
  const approved = await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
    cookie: approverCookie,
    body: { reason: "Checked" },
  });
  if (approved.status !== 200) return approved;
  await approved.body?.cancel();
  return await t.request("GET", `/api/institutions/${id}`, { cookie: approverCookie });
}

async function expect400Naming(res: Response, field: string) {
  const body = await expectJson(res, 400);
  assert.equal(body.code, "validation");
  assert.ok(body.fields?.[field], `expected fields.${field} in ${JSON.stringify(body)}`);
  return body;
}

/** Bulk registration through the service in one transaction: fast, and audited like the API. */
async function seedInstitutions(
  t: TestApp,
  bodies: Record<string, unknown>[],
  createdAt?: (i: number) => string,
) {
  const actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };
  await t.deps.db.transaction(async (tx) => {
    for (const [i, body] of bodies.entries()) {
      await insertInstitution(
        tx,
        actor,
        {
          numberOfBranches: 1,
          swiftParticipant: false,
          swiftMembershipType: null,
          licenseNumber: null,
          ...body,
        } as Parameters<typeof insertInstitution>[2],
        { createdAt: createdAt?.(i) },
      );
    }
  });
}

Deno.test("POST /api/institutions answers 201 with exactly the spec's fields, status pending, and audits the creation", async () => {
  await withApp(async (t, req) => {
    const body = validBody({
      type: "credit_union",
      numberOfBranches: 12,
      swiftParticipant: true,
      swiftMembershipType: "subgroup",
    });
    const created = await expectJson(await req("POST", "/api/institutions", { body }), 201);
    assert.deepEqual(Object.keys(created).sort(), SPEC_FIELDS);
    assert.equal(created.status, "pending");
    assert.equal(created.type, "credit_union");
    assert.equal(created.numberOfBranches, 12);
    assert.equal(created.swiftParticipant, true);
    assert.equal(created.swiftMembershipType, "subgroup");
    assert.equal(created.createdAt, created.updatedAt);
    // The operator registered it: the desk sends registrations as its operator.
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: req.operatorCookie }), 200);
    assert.equal(created.createdBy, me.id);

    const audits = await t.deps.db.read.select().from(auditTrail).where(eq(auditTrail.entityId, created.id))
      .all();
    assert.equal(audits.length, 1);
    assert.equal(audits[0].entityType, "institution");
    assert.equal(audits[0].action, "create");
    assert.equal(audits[0].performedBy, me.id);
    assert.deepEqual(audits[0].changes, { before: null, after: created });
    assert.equal((await verifyAuditChain(t.deps.db.read)).ok, true);
  });
});

Deno.test("POST /api/institutions trims text, turns a blank licence number into null and defaults branches to 1 and SWIFT off", async () => {
  await withApp(async (_t, req) => {
    const { numberOfBranches: _n, swiftParticipant: _s, ...rest } = validBody({
      name: "  Spaced Bank  ",
      licenseNumber: "   ",
    });
    const created = await expectJson(await req("POST", "/api/institutions", { body: rest }), 201);
    assert.equal(created.name, "Spaced Bank");
    assert.equal(created.licenseNumber, null);
    assert.equal(created.numberOfBranches, 1);
    assert.equal(created.swiftParticipant, false);
    assert.equal(created.swiftMembershipType, null);
  });
});

Deno.test("POST /api/institutions answers 400 naming each required field when it is missing or blank", async () => {
  await withApp(async (t, req) => {
    for (const field of ["name", "type", "registrationNumber", "address", "phoneNumber", "emailAddress"]) {
      const missing = validBody();
      delete missing[field];
      const body = await expect400Naming(await req("POST", "/api/institutions", { body: missing }), field);
      assert.equal(body.fields[field], "Required");
      if (field !== "type") {
        await expect400Naming(
          await req("POST", "/api/institutions", { body: validBody({ [field]: "   " }) }),
          field,
        );
      }
    }
    assert.equal((await t.deps.db.read.select().from(institutions).all()).length, 0);
  });
});

Deno.test("POST /api/institutions enforces every length limit: the maximum passes, one more is refused naming the field", async () => {
  const limits: [string, number, (length: number) => string][] = [
    ["name", 255, (n) => "N".repeat(n)],
    ["registrationNumber", 100, (n) => "R".repeat(n)],
    ["licenseNumber", 100, (n) => "L".repeat(n)],
    ["address", 1000, (n) => "A".repeat(n)],
    ["phoneNumber", 50, (n) => "5".repeat(n)],
    ["emailAddress", 255, (n) => `${"e".repeat(n - "@bank.example".length)}@bank.example`],
  ];
  await withApp(async (_t, req) => {
    for (const [field, max, make] of limits) {
      const created = await expectJson(
        await req("POST", "/api/institutions", { body: validBody({ [field]: make(max) }) }),
        201,
      );
      assert.equal(created[field].length, max, field);
      await expect400Naming(
        await req("POST", "/api/institutions", { body: validBody({ [field]: make(max + 1) }) }),
        field,
      );
    }
  });
});

Deno.test("POST /api/institutions accepts every institution type and SWIFT membership type and refuses other values", async () => {
  await withApp(async (_t, req) => {
    for (const type of INSTITUTION_TYPES) {
      const created = await expectJson(
        await req("POST", "/api/institutions", { body: validBody({ type }) }),
        201,
      );
      assert.equal(created.type, type);
    }
    for (const type of ["bank", "COMMERCIAL", "", 3]) {
      await expect400Naming(await req("POST", "/api/institutions", { body: validBody({ type }) }), "type");
    }
    for (const swiftMembershipType of SWIFT_MEMBERSHIP_TYPES) {
      const created = await expectJson(
        await req("POST", "/api/institutions", {
          body: validBody({ swiftParticipant: true, swiftMembershipType }),
        }),
        201,
      );
      assert.equal(created.swiftMembershipType, swiftMembershipType);
    }
    await expect400Naming(
      await req("POST", "/api/institutions", {
        body: validBody({ swiftParticipant: true, swiftMembershipType: "gold" }),
      }),
      "swiftMembershipType",
    );
    await expect400Naming(
      await req("POST", "/api/institutions", { body: validBody({ swiftParticipant: "yes" }) }),
      "swiftParticipant",
    );
  });
});

Deno.test("POST /api/institutions refuses a SWIFT membership type when the institution is not a SWIFT participant", async () => {
  await withApp(async (_t, req) => {
    const body = await expect400Naming(
      await req("POST", "/api/institutions", {
        body: validBody({ swiftParticipant: false, swiftMembershipType: "full" }),
      }),
      "swiftMembershipType",
    );
    assert.match(body.message, /swiftMembershipType/);
    const participantWithout = await expectJson(
      await req("POST", "/api/institutions", {
        body: validBody({ swiftParticipant: true, swiftMembershipType: null }),
      }),
      201,
    );
    assert.equal(participantWithout.swiftMembershipType, null);
  });
});

Deno.test("POST /api/institutions accepts status only as pending: creation always starts pending", async () => {
  await withApp(async (_t, req) => {
    const pending = await expectJson(
      await req("POST", "/api/institutions", { body: validBody({ status: "pending" }) }),
      201,
    );
    assert.equal(pending.status, "pending");
    for (const status of ["active", "suspended", "approved"]) {
      await expect400Naming(
        await req("POST", "/api/institutions", { body: validBody({ status }) }),
        "status",
      );
    }
  });
});

Deno.test("POST /api/institutions takes numberOfBranches as a 32-bit integer of at least 1", async () => {
  await withApp(async (_t, req) => {
    const max = await expectJson(
      await req("POST", "/api/institutions", { body: validBody({ numberOfBranches: 2_147_483_647 }) }),
      201,
    );
    assert.equal(max.numberOfBranches, 2_147_483_647);
    const one = await expectJson(
      await req("POST", "/api/institutions", { body: validBody({ numberOfBranches: 1 }) }),
      201,
    );
    assert.equal(one.numberOfBranches, 1);
    for (const numberOfBranches of [0, -1, 1.5, 2_147_483_648, "3", null]) {
      await expect400Naming(
        await req("POST", "/api/institutions", { body: validBody({ numberOfBranches }) }),
        "numberOfBranches",
      );
    }
  });
});

Deno.test("POST /api/institutions refuses a malformed e-mail address naming emailAddress", async () => {
  await withApp(async (_t, req) => {
    for (const emailAddress of ["not-an-email", "a@b", "@bank.example", "two@@bank.example"]) {
      await expect400Naming(
        await req("POST", "/api/institutions", { body: validBody({ emailAddress }) }),
        "emailAddress",
      );
    }
  });
});

Deno.test("a duplicate registration number answers 409 naming registrationNumber, in any letter case, and writes nothing", async () => {
  await withApp(async (t, req) => {
    await expectJson(
      await req("POST", "/api/institutions", { body: validBody({ registrationNumber: "CBR-CO-00042" }) }),
      201,
    );
    const auditsBefore = (await t.deps.db.read.select().from(auditTrail).all()).length;
    for (const registrationNumber of ["CBR-CO-00042", "cbr-co-00042", "  CBR-CO-00042 "]) {
      const body = await expectJson(
        await req("POST", "/api/institutions", { body: validBody({ registrationNumber }) }),
        409,
      );
      assert.equal(body.code, "conflict");
      assert.equal(body.field, "registrationNumber");
      assert.ok(body.fields.registrationNumber);
    }
    assert.equal((await t.deps.db.read.select().from(institutions).all()).length, 1);
    assert.equal((await t.deps.db.read.select().from(auditTrail).all()).length, auditsBefore);
  });
});

Deno.test("GET /api/institutions/{id} answers the record, and 404 for an unknown id", async () => {
  await withApp(async (_t, req) => {
    const created = await expectJson(await req("POST", "/api/institutions", { body: validBody() }), 201);
    assert.deepEqual(await expectJson(await req("GET", `/api/institutions/${created.id}`), 200), created);
    const missing = await expectJson(await req("GET", `/api/institutions/${crypto.randomUUID()}`), 404);
    assert.equal(missing.message, "Institution not found");
    await expectJson(await req("GET", "/api/institutions/not-a-uuid"), 404);
  });
});

Deno.test("institution routes answer 401 without a session", async () => {
  const t = await createTestApp();
  try {
    await expectJson(await t.request("GET", "/api/institutions"), 401);
    await expectJson(await t.request("POST", "/api/institutions", { body: validBody() }), 401);
    await expectJson(
      await t.request("PATCH", `/api/institutions/${crypto.randomUUID()}/status`, {
        body: { status: "active" },
      }),
      401,
    );
    await expectJson(await t.request("GET", "/api/search?type=institution&query=bank"), 401);
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/institutions lists newest first as a plain array with X-Total-Count", async () => {
  await withApp(async (t, req) => {
    const base = Date.UTC(2025, 0, 1);
    await seedInstitutions(
      t,
      [0, 1, 2].map((i) => validBody({ name: `Bank ${i}` })),
      (i) => new Date(base + i * 60_000).toISOString(),
    );
    const res = await req("GET", "/api/institutions");
    const list = await expectJson(res, 200);
    assert.ok(Array.isArray(list));
    assert.equal(res.headers.get("x-total-count"), "3");
    assert.deepEqual(list.map((i: { name: string }) => i.name), ["Bank 2", "Bank 1", "Bank 0"]);
    assert.deepEqual(Object.keys(list[0]).sort(), SPEC_FIELDS);
  });
});

Deno.test("GET /api/institutions pages with limit (default 100, at most 500) and offset", async () => {
  await withApp(async (t, req) => {
    const base = Date.UTC(2025, 0, 1);
    const count = 130;
    await seedInstitutions(
      t,
      Array.from(
        { length: count },
        (_, i) => validBody({ name: `Paged Bank ${String(i).padStart(3, "0")}` }),
      ),
      (i) => new Date(base + i * 1000).toISOString(),
    );
    const first = await req("GET", "/api/institutions");
    const firstPage = await expectJson(first, 200);
    assert.equal(firstPage.length, 100);
    assert.equal(first.headers.get("x-total-count"), String(count));
    assert.equal(firstPage[0].name, "Paged Bank 129");

    const rest = await req("GET", "/api/institutions?limit=100&offset=100");
    const restPage = await expectJson(rest, 200);
    assert.equal(restPage.length, 30);
    assert.equal(rest.headers.get("x-total-count"), String(count));
    assert.equal(restPage.at(-1).name, "Paged Bank 000");
    const ids = new Set([...firstPage, ...restPage].map((i: { id: string }) => i.id));
    assert.equal(ids.size, count);

    const small = await expectJson(await req("GET", "/api/institutions?limit=5&offset=3"), 200);
    assert.deepEqual(
      small.map((i: { name: string }) => i.name),
      firstPage.slice(3, 8).map((i: { name: string }) => i.name),
    );
    assert.equal((await expectJson(await req("GET", "/api/institutions?limit=500"), 200)).length, count);
    assert.deepEqual(await expectJson(await req("GET", "/api/institutions?offset=1000"), 200), []);

    for (const query of ["limit=501", "limit=0", "limit=-1", "limit=abc", "offset=-1", "limit=1.5"]) {
      const field = query.split("=")[0];
      await expect400Naming(await req("GET", `/api/institutions?${query}`), field);
    }
  });
});

Deno.test("GET /api/institutions?search= finds by name, registration number, licence number and e-mail, case-insensitively", async () => {
  await withApp(async (t, req) => {
    await seedInstitutions(t, [
      validBody({
        name: "Meridian Commercial Bank",
        registrationNumber: "CBR-CO-00002",
        licenseNumber: "LIC-7731",
        emailAddress: "ops@meridian.example",
      }),
      validBody({
        name: "Coastal Savings & Loan",
        registrationNumber: "CBR-SA-00007",
        licenseNumber: null,
        emailAddress: "desk@coastal.example",
      }),
      validBody({
        name: "Crédit Mutuel du Nord",
        registrationNumber: "XN-55",
        licenseNumber: "EU/99",
        emailAddress: "contact@cmn.example",
      }),
    ]);
    const search = async (text: string) => {
      const res = await req("GET", `/api/institutions?search=${encodeURIComponent(text)}`);
      const list = await expectJson(res, 200);
      assert.equal(res.headers.get("x-total-count"), String(list.length));
      return list.map((i: { name: string }) => i.name).sort();
    };
    assert.deepEqual(await search("meridian"), ["Meridian Commercial Bank"]);
    assert.deepEqual(await search("MERCIAL BA"), ["Meridian Commercial Bank"], "substring across a space");
    assert.deepEqual(await search("sa-000"), ["Coastal Savings & Loan"], "registration number substring");
    assert.deepEqual(await search("lic-7731"), ["Meridian Commercial Bank"], "licence number");
    assert.deepEqual(await search("EU/99"), ["Crédit Mutuel du Nord"], "licence number with a slash");
    assert.deepEqual(await search("DESK@COASTAL"), ["Coastal Savings & Loan"], "e-mail");
    assert.deepEqual(await search(".example"), [
      "Coastal Savings & Loan",
      "Crédit Mutuel du Nord",
      "Meridian Commercial Bank",
    ]);
    assert.deepEqual(await search("CRÉDIT"), ["Crédit Mutuel du Nord"], "non-ASCII letters fold too");
    assert.deepEqual(await search("credit mutuel"), ["Crédit Mutuel du Nord"], "accents ignored");
    assert.deepEqual(await search("& Lo"), ["Coastal Savings & Loan"]);
    assert.deepEqual(
      await search("  meridian  "),
      ["Meridian Commercial Bank"],
      "surrounding spaces are ignored",
    );
    assert.deepEqual(await search("nowhere bank"), []);
    for (const odd of ['"quoted"', 'a"b"c', "100%", "x_y", "OR AND NOT", "(*)", "name:x", "^abc"]) {
      assert.deepEqual(await search(odd), [], `query ${odd} is a literal, not syntax`);
    }
    assert.equal((await search("   ")).length, 3, "a blank search is the full list");
  });
});

Deno.test("GET /api/institutions?search= with 1-2 characters matches the start of any word of the searched fields", async () => {
  await withApp(async (t, req) => {
    await seedInstitutions(t, [
      validBody({
        name: "Alpha Bank",
        registrationNumber: "ZZ-1",
        licenseNumber: null,
        emailAddress: "x1@alpha.example",
      }),
      validBody({
        name: "Beta Bank",
        registrationNumber: "AB-2",
        licenseNumber: null,
        emailAddress: "y1@beta.example",
      }),
      validBody({
        name: "Gamma Bank",
        registrationNumber: "GG-3",
        licenseNumber: "QA-3",
        emailAddress: "z1@gamma.example",
      }),
      validBody({
        name: "[Bracket] Trust",
        registrationNumber: "BR-4",
        licenseNumber: null,
        emailAddress: "b1@bracket.example",
      }),
      validBody({
        name: "100% Reserve Bank",
        registrationNumber: "PC-5",
        licenseNumber: null,
        emailAddress: "r1@reserve.example",
      }),
      validBody({
        name: "Éclair Savings",
        registrationNumber: "EC-6",
        licenseNumber: null,
        emailAddress: "s1@savings.example",
      }),
    ]);
    const search = async (text: string) => {
      const res = await req("GET", `/api/institutions?search=${encodeURIComponent(text)}`);
      const list = await expectJson(res, 200);
      assert.equal(res.headers.get("x-total-count"), String(list.length));
      return list.map((i: { name: string }) => i.name).sort();
    };
    assert.deepEqual(await search("a"), ["Alpha Bank", "Beta Bank"], "name 'Alpha', registration 'AB-2'");
    assert.deepEqual(await search("AL"), ["Alpha Bank"]);
    assert.deepEqual(
      await search("ba"),
      ["100% Reserve Bank", "Alpha Bank", "Beta Bank", "Gamma Bank"],
      "any word: 'Bank'",
    );
    assert.deepEqual(await search("q"), ["Gamma Bank"], "licence number");
    assert.deepEqual(await search("Y1"), ["Beta Bank"], "e-mail");
    assert.deepEqual(await search("ta"), [], "no mid-word match below three characters");
    assert.deepEqual(await search("br"), ["[Bracket] Trust"], "a word after punctuation");
    assert.deepEqual(await search("10"), ["100% Reserve Bank"]);
    assert.deepEqual(await search("éc"), ["Éclair Savings"]);
    assert.deepEqual(await search("ec"), ["Éclair Savings"], "accents ignored");
    for (const punctuation of ["%", "_", "[", '"', "*", "-"]) {
      assert.deepEqual(await search(punctuation), [], `${punctuation} is a literal, not syntax`);
    }
  });
});

Deno.test("GET /api/institutions?search= pages its matches newest first with the match count in X-Total-Count", async () => {
  await withApp(async (t, req) => {
    const base = Date.UTC(2025, 5, 1);
    await seedInstitutions(
      t,
      Array.from(
        { length: 12 },
        (_, i) => validBody({ name: i % 2 === 0 ? `Harbor Bank ${i}` : `Other Trust ${i}` }),
      ),
      (i) => new Date(base + i * 1000).toISOString(),
    );
    for (const text of ["harbor", "H"]) {
      const first = await req("GET", `/api/institutions?search=${text}&limit=4`);
      assert.equal(first.headers.get("x-total-count"), "6");
      const firstNames = (await expectJson(first, 200)).map((i: { name: string }) => i.name);
      assert.deepEqual(firstNames, ["Harbor Bank 10", "Harbor Bank 8", "Harbor Bank 6", "Harbor Bank 4"]);
      const second = await expectJson(
        await req("GET", `/api/institutions?search=${text}&limit=4&offset=4`),
        200,
      );
      assert.deepEqual(second.map((i: { name: string }) => i.name), ["Harbor Bank 2", "Harbor Bank 0"]);
    }
  });
});

Deno.test("the search index follows changes to searched fields made after registration", async () => {
  await withApp(async (t, req) => {
    const created = await expectJson(
      await req("POST", "/api/institutions", { body: validBody({ name: "Old Name Bank" }) }),
      201,
    );
    await t.deps.db.transaction(async (tx) => {
      await tx.update(institutions).set({ name: "Renamed Bank", emailAddress: "new@renamed.example" }).where(
        eq(institutions.id, created.id),
      );
    });
    const byOld = await expectJson(await req("GET", "/api/institutions?search=old%20name"), 200);
    assert.equal(byOld.length, 0);
    for (const text of ["renamed", "re", "NEW@"]) {
      const found = await expectJson(
        await req("GET", `/api/institutions?search=${encodeURIComponent(text)}`),
        200,
      );
      assert.deepEqual(found.map((i: { id: string }) => i.id), [created.id], text);
    }
    assert.deepEqual(await expectJson(await req("GET", "/api/institutions?search=ol"), 200), []);
    for (const index of ["institutions_fts", "institutions_prefix_fts"]) {
      const [{ count }] = await t.deps.db.read.all<{ count: number }>(
        sql`SELECT count(*) AS count FROM ${sql.raw(index)}`,
      );
      assert.equal(count, 1, index);
    }
  });
});

/** Termination, possible from every status, has its own tests (institutions_over_time_test.ts). */
const EXPECTED_TRANSITIONS: Record<InstitutionStatus, InstitutionLifecycleStatus[]> = {
  pending: ["active", "terminated"],
  active: ["suspended", "terminated"],
  suspended: ["active", "terminated"],
};

Deno.test("PATCH /api/institutions/{id}/status follows the transition matrix; refusals answer 409 with the allowed ones", async () => {
  await withApp(async (t, req) => {
    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    const path: Record<InstitutionStatus, InstitutionStatus[]> = {
      pending: [],
      active: ["active"],
      suspended: ["active", "suspended"],
    };
    for (const from of INSTITUTION_STATUSES) {
      for (const to of INSTITUTION_STATUSES) {
        const created = await expectJson(await req("POST", "/api/institutions", { body: validBody() }), 201);
        for (const step of path[from]) {
          await expectJson(await changeStatus(t, req, approver.cookie, created.id, step), 200);
        }
        const res = await changeStatus(t, req, approver.cookie, created.id, to);
        const stored = await t.deps.db.read.select().from(institutions).where(eq(institutions.id, created.id))
          .get();
        if (EXPECTED_TRANSITIONS[from].includes(to)) {
          const updated = await expectJson(res, 200);
          assert.equal(updated.status, to, `${from} → ${to}`);
          assert.deepEqual(Object.keys(updated).sort(), SPEC_FIELDS);
          assert.ok(updated.updatedAt >= created.updatedAt);
          assert.equal(stored?.status, to);
        } else {
          const body = await expectJson(res, 409);
          assert.equal(body.code, "conflict", `${from} → ${to}`);
          assert.equal(body.field, "status");
          assert.deepEqual(body.allowed, EXPECTED_TRANSITIONS[from]);
          assert.equal(body.from, from);
          assert.equal(stored?.status, from);
        }
      }
    }
  });
});

Deno.test("each status change is requested by the signed-in user and audited with its before and after status, by its approver", async () => {
  await withApp(async (t, req) => {
    const me = await expectJson(await t.request("GET", "/api/auth/user", { cookie: req.operatorCookie }), 200);
    const approver = await seededStaff(t, "approver@centralbank.test", ["approver"]);
    const created = await expectJson(await req("POST", "/api/institutions", { body: validBody() }), 201);
    for (const status of ["active", "suspended", "active"]) {
      await expectJson(await changeStatus(t, req, approver.cookie, created.id, status), 200);
    }
    await expectJson(
      await req("PATCH", `/api/institutions/${created.id}/status`, { body: { status: "pending", requestReason: "x" } }),
      409,
    );
    const requests = await expectJson(await req("GET", "/api/approvals?kind=institution_status"), 200);
    assert.equal(requests.length, 3);
    assert.ok(requests.every((r: { requestedBy: string; decidedBy: string }) =>
      r.requestedBy === me.id && r.decidedBy === approver.id
    ));
    const audits = await t.deps.db.read.select().from(auditTrail)
      .where(eq(auditTrail.entityId, created.id)).orderBy(auditTrail.seq).all();
    assert.deepEqual(audits.map((a) => a.action), [
      "create",
      "status_change",
      "status_change",
      "status_change",
    ]);
    assert.deepEqual(audits.slice(1).map((a) => a.changes), [
      { before: { status: "pending" }, after: { status: "active" } },
      { before: { status: "active" }, after: { status: "suspended" } },
      { before: { status: "suspended" }, after: { status: "active" } },
    ]);
    assert.equal(audits[0].performedBy, me.id);
    assert.ok(audits.slice(1).every((a) => a.performedBy === approver.id && a.entityType === "institution"));
    assert.equal((await verifyAuditChain(t.deps.db.read)).ok, true);
  });
});

Deno.test("PATCH /api/institutions/{id}/status answers 400 for an unknown status and 404 for an unknown institution", async () => {
  await withApp(async (_t, req) => {
    const created = await expectJson(await req("POST", "/api/institutions", { body: validBody() }), 201);
    await expect400Naming(
      await req("PATCH", `/api/institutions/${created.id}/status`, { body: { status: "approved" } }),
      "status",
    );
    await expect400Naming(
      await req("PATCH", `/api/institutions/${created.id}/status`, { body: {} }),
      "status",
    );
    await expectJson(
      await req("PATCH", `/api/institutions/${crypto.randomUUID()}/status`, { body: { status: "active" } }),
      404,
    );
  });
});

Deno.test("the demo seeder registers three dozen institutions of every type and status, audited, and a second run adds nothing", async () => {
  const t = await createTestApp();
  try {
    const lines: string[] = [];
    await institutionsDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    const rows = await t.deps.db.read.select().from(institutions).all();
    assert.equal(rows.length, DEMO_INSTITUTIONS.length);
    assert.ok(rows.length >= 30);
    assert.deepEqual(new Set(rows.map((r) => r.type)), new Set(INSTITUTION_TYPES));
    assert.deepEqual(new Set(rows.map((r) => r.status)), new Set(INSTITUTION_STATUSES));
    assert.ok(rows.some((r) => r.swiftParticipant) && rows.some((r) => !r.swiftParticipant));
    assert.ok(rows.every((r) => r.createdBy === SYSTEM_USER_ID));
    for (const row of rows) {
      const expected = DEMO_INSTITUTIONS.find((d) => d.registrationNumber === row.registrationNumber)!;
      assert.equal(row.status, expected.status, row.name);
    }
    const audits = await t.deps.db.read.select().from(auditTrail).where(
      eq(auditTrail.entityType, "institution"),
    ).all();
    const expectedAudits = DEMO_INSTITUTIONS.reduce(
      (sum, d) => sum + 1 + (d.status === "active" ? 1 : d.status === "suspended" ? 2 : 0),
      0,
    );
    assert.equal(audits.length, expectedAudits);
    assert.ok(audits.every((a) => a.performedBy === SYSTEM_USER_ID));
    assert.deepEqual(lines, [`seed: ${DEMO_INSTITUTIONS.length} demo institutions`]);

    await institutionsDemoSeeder(t.deps, (line) => lines.push(line), () => {});
    assert.equal((await t.deps.db.read.select().from(institutions).all()).length, DEMO_INSTITUTIONS.length);
    assert.equal(lines.length, 1, "the second run logs nothing");
    assert.equal((await verifyAuditChain(t.deps.db.read)).ok, true);

    const req = await t.desk();
    const recent = await expectJson(await req("GET", "/api/dashboard/recent-registrations"), 200);
    const newest = [...DEMO_INSTITUTIONS].sort((a, b) => a.daysAgo - b.daysAgo).slice(0, 5).map((d) =>
      d.name
    );
    assert.deepEqual(recent.map((r: { name: string }) => r.name), newest);
  } finally {
    await t.close();
  }
});

Deno.test("demo institutions are seeded only into the embedded database and only unless SEED_DEMO=0", async () => {
  for (
    const [env, expected] of [[{ SEED_DEMO: "0" }, 0], [
      { SEED_DEMO: "1" },
      DEMO_INSTITUTIONS.length,
    ]] as const
  ) {
    const t = await createTestApp(env);
    try {
      assert.equal(
        (await t.deps.db.read.select().from(institutions).all()).length,
        expected,
        JSON.stringify(env),
      );
    } finally {
      await t.close();
    }
  }
  const dataDir = await Deno.makeTempDir({ prefix: "cbr-test-" });
  const t = await createTestApp({ SEED_DEMO: "1", DATABASE_URL: `file:${dataDir}/configured.db` });
  try {
    assert.equal(
      (await t.deps.db.read.select().from(institutions).all()).length,
      0,
      "configured DATABASE_URL",
    );
  } finally {
    await t.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("migration 0102 re-keys existing institutions newest first and keeps both search indexes complete", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "cbr-test-" });
  const db = await openDatabase(`file:${dataDir}/console.db`);
  try {
    await db.readClient.execute(
      "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const migration of await listMigrations()) {
      if (migration.name >= "0102") continue;
      await db.transaction(async (tx) => {
        for (const statement of splitStatements(migration.sql)) await tx.run(sql.raw(statement));
        await tx.run(
          sql`INSERT INTO schema_migrations VALUES (${migration.name}, ${new Date().toISOString()})`,
        );
      });
    }
    const base = Date.UTC(2024, 0, 1);
    await db.transaction(async (tx) => {
      // Inserted out of date order: the keys must follow created_at, not insertion.
      // Plain SQL: the Drizzle model names columns that later migrations add.
      for (const i of [2, 0, 1]) {
        await tx.run(sql`INSERT INTO institutions (id, name, type, registration_number, address, phone_number,
          email_address, created_at) VALUES (${`inst-${i}`}, ${`Legacy Bank ${i}`}, 'commercial', ${`LEG-${i}`},
          '1 Old Street', '+1 202 555 0100', ${`legacy${i}@old.example`},
          ${new Date(base + i * 86_400_000).toISOString()})`);
      }
    });
    assert.ok((await migrate(db)).some((name) => name.startsWith("0102")));
    const keys = await db.read.select().from(institutionSearchKeys).orderBy(institutionSearchKeys.searchKey)
      .all();
    assert.deepEqual(keys.map((k) => k.institutionId), ["inst-2", "inst-1", "inst-0"]);
    for (
      const [index, match] of [["institutions_fts", '"legacy bank"'], ["institutions_prefix_fts", '"le"*']]
    ) {
      const rows = await db.read.all<{ rowid: number }>(
        sql`SELECT rowid FROM ${sql.raw(index)} WHERE ${sql.raw(index)} MATCH ${match} ORDER BY rowid`,
      );
      assert.deepEqual(rows.map((r) => r.rowid), keys.map((k) => k.searchKey), index);
    }
    await db.transaction(async (tx) => {
      await tx.insert(institutions).values({
        id: "inst-new",
        name: "Legacy Bank New",
        type: "savings",
        registrationNumber: "LEG-NEW",
        address: "2 New Street",
        phoneNumber: "+1 202 555 0101",
        emailAddress: "new@old.example",
      });
    });
    const page = await listInstitutions(db.read, { search: "legacy", limit: 10, offset: 0 });
    assert.deepEqual(page.items.map((i) => i.id), ["inst-new", "inst-2", "inst-1", "inst-0"]);
  } finally {
    db.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("totalFromPage() knows the total from a short non-empty page or an empty first page, and only then", () => {
  assert.equal(totalFromPage(3, 100, 0), 3);
  assert.equal(totalFromPage(30, 100, 100), 130);
  assert.equal(totalFromPage(100, 100, 0), null, "a full page may have more after it");
  assert.equal(totalFromPage(0, 100, 200), null, "an empty page past the end says nothing");
  assert.equal(totalFromPage(0, 100, 0), 0, "an empty first page: nothing matches");
});

Deno.test("cached search counts are reused until a searched field changes, so X-Total-Count is never stale", async () => {
  await withApp(async (t, req) => {
    await seedInstitutions(
      t,
      Array.from({ length: 5 }, (_, i) => validBody({ name: `Cached Harbor Bank ${i}` })),
    );
    const counts = createCountCache();
    let computed = 0;
    const count = () => {
      computed += 1;
      return Promise.resolve(42);
    };
    const write = (statement: ReturnType<typeof sql>) =>
      t.deps.db.transaction(async (tx) => void await tx.run(statement));
    assert.equal(await counts.get(t.deps.db.read, "k", count), 42);
    assert.equal(await counts.get(t.deps.db.read, "k", count), 42);
    assert.equal(computed, 1, "the second call is a hit");
    await write(sql`UPDATE institutions SET phone_number = '+1 202 555 0199', status = 'active'`);
    await write(
      sql`INSERT INTO api_logs (id, endpoint, method, response_status) VALUES ('log-1', '/api/x', 'GET', 200)`,
    );
    await counts.get(t.deps.db.read, "k", count);
    assert.equal(computed, 1, "writes that cannot change a search keep the entry");
    await write(sql`UPDATE institutions SET email_address = 'a' || email_address`);
    await counts.get(t.deps.db.read, "k", count);
    assert.equal(computed, 2, "a change to a searched field invalidates");

    const total = async (path: string) => (await req("GET", path)).headers.get("x-total-count");
    for (const offset of [0, 2, 4, 0]) {
      assert.equal(await total(`/api/institutions?search=cached%20harbor&limit=2&offset=${offset}`), "5");
    }
    assert.equal(await total("/api/institutions?search=ca&limit=2"), "5");
    await expectJson(
      await req("POST", "/api/institutions", { body: validBody({ name: "Cached Harbor Bank 5" }) }),
      201,
    );
    assert.equal(await total("/api/institutions?search=cached%20harbor&limit=2"), "6");
    assert.equal(await total("/api/institutions?search=ca&limit=2"), "6");
    assert.equal(await total("/api/search?type=institution&query=cached%20harbor&limit=2"), "6");
  });
});

Deno.test("createCountCache() keeps at most its bound of entries, dropping the least recently used", async () => {
  await withApp(async (t) => {
    const counts = createCountCache(2);
    const computed: string[] = [];
    const get = (key: string) =>
      counts.get(t.deps.db.read, key, () => {
        computed.push(key);
        return Promise.resolve(1);
      });
    await get("a");
    await get("b");
    await get("a");
    await get("c");
    await get("a");
    await get("b");
    assert.deepEqual(computed, ["a", "b", "c", "b"]);
  });
});
