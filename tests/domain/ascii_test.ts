import assert from "node:assert/strict";
import { asciiUpperCase, describeCharacter, firstNonAlphanumeric } from "../../src/domain/ascii.ts";
import { issuerPrefixOf } from "../../src/domain/national_routing.ts";
import { normalizeRoutingPrefix } from "../../src/domain/routing_code.ts";

Deno.test("asciiUpperCase() upper-cases a-z only; letters that toUpperCase() maps onto ASCII stay as they are", () => {
  assert.equal(asciiUpperCase("gb29 nwbk"), "GB29 NWBK");
  for (const lookAlike of ["\u017F", "\u0131", "\uFB01", "\uFB00", "\u00DF", "\u0149"]) {
    assert.notEqual(lookAlike.toUpperCase(), lookAlike, "toUpperCase() changes it");
    assert.equal(asciiUpperCase(`a${lookAlike}b`), `A${lookAlike}B`, lookAlike);
  }
  assert.equal(asciiUpperCase("\u00e4bc"), "\u00e4BC");
});

Deno.test("firstNonAlphanumeric() finds the first character outside A-Z, a-z, 0-9 with its position in characters", () => {
  assert.equal(firstNonAlphanumeric("AZaz09"), null);
  assert.deepEqual(firstNonAlphanumeric("AB/C"), { character: "/", position: 3 });
  assert.deepEqual(firstNonAlphanumeric("AB\u{1F600}C"), { character: "\u{1F600}", position: 3 });
  assert.equal(describeCharacter("\u00ad"), '"\u00ad" (U+00AD)');
  assert.equal(describeCharacter("\u{1F600}"), '"\u{1F600}" (U+1F600)');
});

Deno.test("routing and issuer prefixes are not read through look-alike letters", () => {
  assert.equal(normalizeRoutingPrefix(" abc "), "ABC");
  assert.equal(normalizeRoutingPrefix("\u017Fbc"), "\u017FBC");
  assert.equal(issuerPrefixOf("cbr001").ok, true);
  assert.equal(issuerPrefixOf("\u017Fbr001").ok, false, "long s is not S");
  assert.equal(issuerPrefixOf("\u0131br001").ok, false, "dotless i is not I");
});
