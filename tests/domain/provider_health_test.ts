import assert from "node:assert/strict";
import { PROVIDER_HEALTH_LABELS, providerHealth } from "../../src/domain/fintech.ts";

Deno.test("providerHealth(): a sandboxed provider is Sandbox whatever its calls did", () => {
  assert.equal(providerHealth("sandbox", null), "sandbox");
  assert.equal(providerHealth("sandbox", "succeeded"), "sandbox");
  assert.equal(PROVIDER_HEALTH_LABELS.sandbox, "Sandbox");
});

Deno.test("providerHealth(): a live provider is operational only once its latest call was answered", () => {
  assert.equal(providerHealth("live", null), "unverified");
  assert.equal(providerHealth("live", "succeeded"), "operational");
  assert.equal(providerHealth("live", "rejected"), "operational", "a refusal is an answer");
  assert.equal(providerHealth("live", "unavailable"), "unavailable");
});
