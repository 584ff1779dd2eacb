/**
 * Regenerates db/seed/iban_registry_r102.json from the vendored SWIFT IBAN Registry release.
 *
 *   node_modules/.bin/deno run --allow-read=db/reference --allow-write=db/seed scripts/gen_iban_registry.ts
 *
 * Parsing lives in src/domain/iban_registry.ts; this script only reads, decodes and writes.
 */
import { parseIbanRegistry, serializeIbanRegistrySeed } from "../src/domain/iban_registry.ts";

const REGISTRY_PATH = "db/reference/swift_iban_registry_202606.r102.txt";
const SEED_DIR = "db/seed";
const SEED_PATH = `${SEED_DIR}/iban_registry_r102.json`;
/** The registry's text release is Windows-1252, not UTF-8. */
const REGISTRY_ENCODING = "windows-1252";

const text = new TextDecoder(REGISTRY_ENCODING).decode(await Deno.readFile(REGISTRY_PATH));
const parsed = parseIbanRegistry(text);
if (!parsed.ok) {
  console.error(`${REGISTRY_PATH}: ${parsed.error.message}`);
  Deno.exit(1);
}
await Deno.mkdir(SEED_DIR, { recursive: true });
await Deno.writeTextFile(SEED_PATH, serializeIbanRegistrySeed(parsed.value));
console.log(`${SEED_PATH}: ${parsed.value.length} countries`);
