import assert from "node:assert/strict";
import { DOCUMENTED_ENDPOINTS } from "../../src/domain/public_api.ts";
import { createTestApp, expectJson } from "../helpers/test_app.ts";

async function fetchDocument() {
  const t = await createTestApp();
  try {
    await expectJson(await t.request("GET", "/api/openapi.json"), 401);
    return await expectJson(await t.request("GET", "/api/openapi.json", { cookie: await t.login() }), 200);
  } finally {
    await t.close();
  }
}

Deno.test("GET /api/openapi.json needs a session and serves an OpenAPI 3.1 document that parses", async () => {
  const doc = await fetchDocument();
  assert.equal(doc.openapi, "3.1.0");
  assert.equal(typeof doc.info.title, "string");
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
  assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
    type: "http",
    scheme: "bearer",
    description: doc.components.securitySchemes.bearerAuth.description,
  });
});

Deno.test("the OpenAPI document lists every documented endpoint with its hourly limit, the envelope and the errors", async () => {
  const doc = await fetchDocument();
  const listed = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`)
  );
  assert.deepEqual(listed.sort(), DOCUMENTED_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());
  for (const endpoint of DOCUMENTED_ENDPOINTS) {
    const operation = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
    assert.equal(operation["x-rate-limit-per-hour"], endpoint.limitPerHour, endpoint.path);
    assert.deepEqual(operation.security, [{ bearerAuth: [] }]);
    if (endpoint.file) {
      // A download is its file byte for byte, revalidated by its ETag.
      assert.deepEqual(Object.keys(operation.responses).sort(), ["200", "304", "400", "401", "403", "404", "429"]);
      assert(operation.responses["200"].content[endpoint.file], endpoint.path);
      assert(operation.responses["200"].headers.ETag, "a download documents its ETag");
    } else {
      assert.deepEqual(Object.keys(operation.responses).sort(), ["200", "400", "401", "403", "404", "429"]);
      const success = operation.responses["200"].content["application/json"].schema;
      assert.deepEqual(success.required.sort(), ["data", "success", "timestamp"]);
    }
    const failure = operation.responses["429"];
    assert(failure.headers["Retry-After"], "429 documents Retry-After");
    assert(failure.headers["RateLimit-Reset"], "429 documents RateLimit-Reset");
    assert.deepEqual(failure.content["application/json"].schema.properties.success, {
      type: "boolean",
      enum: [false],
    });
  }
});

Deno.test("OpenAPI parameters and bodies come from the schemas the routes validate with", async () => {
  const doc = await fetchDocument();
  const params = (path: string) =>
    Object.fromEntries(
      doc.paths[path].get.parameters.map((
        p: { name: string; in: string; required: boolean; schema: unknown },
      ) => [
        p.name,
        { in: p.in, required: p.required, schema: p.schema },
      ]),
    );
  const search = params("/api/search");
  assert.deepEqual(search.type.schema.enum, ["routing", "swift", "institution"]);
  assert.equal(search.type.required, true);
  assert.equal(search.query.in, "query");
  assert.equal(search.limit.schema.maximum, 500);
  assert.equal(params("/api/institutions").search.required, false);
  assert.deepEqual(params("/api/routing-codes/{code}").code.in, "path");
  assert.deepEqual(params("/api/swift-codes/{bic}").bic.in, "path");
  assert.deepEqual(params("/api/institutions/{id}").id.schema.maxLength, 255);
  const ibanBody = doc.paths["/api/iban/validate"].post.requestBody.content["application/json"].schema;
  assert.deepEqual(ibanBody.required, ["iban"]);
  const ibanData =
    doc.paths["/api/iban/validate"].post.responses["200"].content["application/json"].schema.properties.data;
  assert(ibanData.properties.valid && ibanData.properties.details, "the validation result is described");
});
