import assert from "node:assert/strict";
import { routingCodes, swiftCodes, SYSTEM_USER_ID } from "../../db/schema.ts";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import { insertInstitution } from "../../src/server/features/institutions/service.ts";
import { createTestApp, expectJson, type TestApp } from "../helpers/test_app.ts";

const ACTOR = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

async function withApp(
  fn: (t: TestApp, req: ReturnType<TestApp["as"]>, institutionId: string) => Promise<void>,
) {
  const t = await createTestApp();
  try {
    const req = t.as(await t.login());
    const institution = await t.deps.db.transaction((tx) =>
      insertInstitution(tx, ACTOR, {
        name: "Meridian Commercial Bank",
        type: "commercial",
        registrationNumber: "CBR-CO-00002",
        licenseNumber: "LIC-2002",
        address: "200 Meridian Avenue, Capital City",
        phoneNumber: "+1 202 555 0102",
        emailAddress: "compliance@meridianbank.example",
        numberOfBranches: 87,
        swiftParticipant: true,
        swiftMembershipType: "full",
      })
    );
    await fn(t, req, institution.id);
  } finally {
    await t.close();
  }
}

const search = (req: ReturnType<TestApp["as"]>, type: string, query: string) =>
  req("GET", `/api/search?type=${encodeURIComponent(type)}&query=${encodeURIComponent(query)}`);

Deno.test("GET /api/search?type=routing finds routing codes by whole code, leading part or prefix, in any case", async () => {
  await withApp(async (t, req, institutionId) => {
    const codes = [formatRoutingCode("MER", 1), formatRoutingCode("MER", 2), formatRoutingCode("ABC", 1)];
    await t.deps.db.transaction(async (tx) => {
      for (const [i, code] of codes.entries()) {
        await tx.insert(routingCodes).values({
          id: crypto.randomUUID(),
          institutionId,
          code,
          prefix: code.slice(0, 3),
          status: "active",
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
        });
      }
    });
    const found = async (query: string) => {
      const res = await search(req, "routing", query);
      const list = await expectJson(res, 200);
      assert.equal(res.headers.get("x-total-count"), String(list.length));
      return list.map((r: { code: string }) => r.code);
    };
    assert.deepEqual(await found(codes[0]), [codes[0]], "whole code");
    assert.deepEqual(await found("MER"), [codes[1], codes[0]], "prefix, newest first");
    assert.deepEqual(await found("mer"), [codes[1], codes[0]], "lower case");
    assert.deepEqual(await found("MER00000"), [codes[1], codes[0]], "leading part of the code");
    assert.deepEqual(await found(` ${codes[2].toLowerCase()} `), [codes[2]], "trimmed and upper-cased");
    assert.deepEqual(await found("XYZ"), []);
    assert.deepEqual(await found("%"), [], "wildcards are literal");

    const [record] = await expectJson(await search(req, "routing", codes[2]), 200);
    assert.deepEqual(Object.keys(record).sort(), [
      "branchCode",
      "code",
      "createdAt",
      "createdBy",
      "deletionAnnounced",
      "deletionAnnouncedAt",
      "description",
      "id",
      "institutionId",
      "prefix",
      "status",
      "successorCode",
      "terminatedAt",
      "updatedAt",
    ]);
    assert.equal(record.institutionId, institutionId);
  });
});

Deno.test("GET /api/search?type=swift finds SWIFT codes by BIC and by bank code, in any case", async () => {
  await withApp(async (t, req, institutionId) => {
    const bics = [
      { bicCode: "MERIUS33", bankCode: "MERI", countryCode: "US", locationCode: "33", branchCode: null },
      { bicCode: "MERIUS33NYC", bankCode: "MERI", countryCode: "US", locationCode: "33", branchCode: "NYC" },
      { bicCode: "ATLSGB2L", bankCode: "ATLS", countryCode: "GB", locationCode: "2L", branchCode: null },
    ];
    await t.deps.db.transaction(async (tx) => {
      for (const [i, bic] of bics.entries()) {
        await tx.insert(swiftCodes).values({
          id: crypto.randomUUID(),
          institutionId,
          ...bic,
          membershipType: "full",
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
        });
      }
    });
    const found = async (query: string) =>
      (await expectJson(await search(req, "swift", query), 200))
        .map((r: { bicCode: string }) => r.bicCode);
    assert.deepEqual(await found("MERIUS33NYC"), ["MERIUS33NYC"], "whole BIC11");
    assert.deepEqual(
      await found("MERIUS33"),
      ["MERIUS33NYC", "MERIUS33"],
      "BIC8 and its branches, newest first",
    );
    assert.deepEqual(await found("meri"), ["MERIUS33NYC", "MERIUS33"], "bank code, lower case");
    assert.deepEqual(await found("ATLS"), ["ATLSGB2L"]);
    assert.deepEqual(await found("ATLSGB2LXXX"), ["ATLSGB2L"], "branch XXX is the primary office");
    assert.deepEqual(await found("ZZZZ"), []);
    const [record] = await expectJson(await search(req, "swift", "ATLSGB2L"), 200);
    assert.equal(record.bankCode, "ATLS");
    assert.equal(record.countryCode, "GB");
    assert.equal(record.institutionId, institutionId);
  });
});

Deno.test("GET /api/search?type=institution searches institutions like the registry list", async () => {
  await withApp(async (_t, req, institutionId) => {
    for (const query of ["meridian", "MERIDIANBANK.EXAMPLE", "co-0000", "lic-2002", "Me", "c"]) {
      const res = await search(req, "institution", query);
      const list = await expectJson(res, 200);
      assert.deepEqual(list.map((i: { id: string }) => i.id), [institutionId], query);
      assert.equal(res.headers.get("x-total-count"), "1");
      assert.equal(list[0].swiftParticipant, true);
    }
    assert.deepEqual(await expectJson(await search(req, "institution", "unknown bank"), 200), []);
  });
});

Deno.test("GET /api/search answers 400 for an unknown or missing type and for a blank, missing or NUL-bearing query", async () => {
  await withApp(async (_t, req) => {
    for (
      const [path, field] of [
        ["/api/search?type=iban&query=abc", "type"],
        ["/api/search?type=ROUTING&query=abc", "type"],
        ["/api/search?query=abc", "type"],
        ["/api/search?type=routing&query=", "query"],
        ["/api/search?type=swift&query=%20%20", "query"],
        ["/api/search?type=institution", "query"],
        ["/api/search?type=institution&query=bank&limit=501", "limit"],
        ["/api/search?type=institution&query=ban%00k", "query"],
        ["/api/search?type=routing&query=ABC%00", "query"],
        ["/api/institutions?search=%00bank", "search"],
      ]
    ) {
      const body = await expectJson(await req("GET", path), 400);
      assert.equal(body.code, "validation");
      assert.ok(body.fields[field], `${path} names ${field}: ${JSON.stringify(body)}`);
    }
  });
});

Deno.test("GET /api/search pages its results with limit and offset and reports the total", async () => {
  await withApp(async (t, req, institutionId) => {
    await t.deps.db.transaction(async (tx) => {
      for (let serial = 1; serial <= 7; serial++) {
        await tx.insert(routingCodes).values({
          id: crypto.randomUUID(),
          institutionId,
          code: formatRoutingCode("PAG", serial),
          prefix: "PAG",
          createdAt: new Date(Date.UTC(2025, 0, serial)).toISOString(),
        });
      }
    });
    const res = await req("GET", "/api/search?type=routing&query=PAG&limit=3&offset=3");
    const page = await expectJson(res, 200);
    assert.equal(res.headers.get("x-total-count"), "7");
    assert.deepEqual(
      page.map((r: { code: string }) => r.code),
      [4, 3, 2].map((s) => formatRoutingCode("PAG", s)),
    );
  });
});
