/**
 * Every routing code, IBAN and BIC that the documentation shows as an example validates, so a
 * reader who copies one gets an answer about the registry, not a 400 about the example.
 */
import assert from "node:assert/strict";
import { validateBic } from "../../src/domain/bic.ts";
import { type IbanCountryFormat, validateIban } from "../../src/domain/iban.ts";
import { type IbanRegistryEntry, toIbanCountryFormat } from "../../src/domain/iban_registry.ts";
import { validateRoutingCode } from "../../src/domain/routing_code.ts";

const DOCS_TAB = "src/web/features/api_management/docs_tab.tsx";
const SEED_PATH = "db/seed/iban_registry_r102.json";

const documents = [
  "README.md",
  ...[...Deno.readDirSync("docs")].filter((entry) => entry.name.endsWith(".md")).map((entry) =>
    `docs/${entry.name}`
  ).sort(),
  DOCS_TAB,
];
const texts = new Map(documents.map((path) => [path, Deno.readTextFileSync(path)]));

const formats: ReadonlyMap<string, IbanCountryFormat> = new Map(
  (JSON.parse(Deno.readTextFileSync(SEED_PATH)) as IbanRegistryEntry[]).map((entry) => [
    entry.countryCode,
    toIbanCountryFormat(entry),
  ]),
);

const ROUTING_CODE = /\b[A-Z]{3}\d{8}\b/g;
/** Electronic or print form: country, check digits, then groups of up to four. */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
const BIC = /\b[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b/g;
/** Upper-case words of a BIC's shape that the documents use as words, not as BICs. */
const NOT_BICS = new Set(["REDACTED", "TREASURY"]);

function examples(pattern: RegExp): { path: string; line: number; text: string }[] {
  const found: { path: string; line: number; text: string }[] = [];
  for (const [path, text] of texts) {
    text.split("\n").forEach((line, index) => {
      for (const match of line.matchAll(pattern)) found.push({ path, line: index + 1, text: match[0] });
    });
  }
  return found;
}

Deno.test("every routing code in the docs, the README and the API docs tab has valid check digits", () => {
  const found = examples(ROUTING_CODE);
  assert.ok(found.some((example) => example.path === DOCS_TAB), "the docs tab shows a routing code");
  assert.ok(found.some((example) => example.path === "docs/api.md"), "docs/api.md shows a routing code");
  const wrong = found.flatMap(({ path, line, text }) => {
    const result = validateRoutingCode(text);
    return result.ok ? [] : [`${path}:${line} ${text}: ${result.error.message}`];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("every IBAN in the docs and the README validates", () => {
  const found = examples(IBAN);
  assert.ok(found.length >= 2, "the docs show IBANs");
  const wrong = found.flatMap(({ path, line, text }) => {
    const result = validateIban(text, formats);
    return result.valid ? [] : [`${path}:${line} ${text}: ${result.details.error}`];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("every BIC in the docs and the README is a valid ISO 9362 code", () => {
  const found = examples(BIC).filter((example) => !NOT_BICS.has(example.text));
  assert.ok(found.some((example) => example.text === "NWBKGB2L"), "the docs show BICs");
  const wrong = found.flatMap(({ path, line, text }) => {
    const result = validateBic(text);
    return result.ok ? [] : [`${path}:${line} ${text}: ${result.error.message}`];
  });
  assert.deepEqual(
    wrong,
    [],
    "fix the example, or add a word that is not meant as a BIC to NOT_BICS",
  );
});
