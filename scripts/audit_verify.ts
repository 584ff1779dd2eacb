/**
 * `deno task audit:verify`: checks that the append-only triggers are in place, that the audit
 * trail's keyed hash chain is intact (naming the first broken row), that every signed
 * checkpoint of AUDIT_CHECKPOINT_FILE still matches the trail, and that the file holds every
 * checkpoint the trail records for this node (naming the first one missing). Exits 1 on any failure.
 */
import { missingAppendOnlyTriggers, verifyAuditChain } from "../src/server/audit/trail.ts";
import { useAuditChainKey } from "../src/server/audit/chain_key.ts";
import { checkpointTargetOf, verifyAuditCheckpoints } from "../src/server/audit/checkpoints.ts";
import { loadConfig } from "../src/server/config.ts";
import { sql } from "drizzle-orm";
import { openConfiguredDatabase } from "../src/server/startup/bootstrap.ts";
import { type Database, isFileUrl } from "../src/server/db/database.ts";

const config = loadConfig();

function fail(message: string) {
  console.error(message);
  Deno.exitCode = 1;
}

async function databaseExists(url: string): Promise<boolean> {
  if (!isFileUrl(url)) return true;
  try {
    return (await Deno.stat(url.slice("file:".length))).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function verifyWith(db: Database, key: Uint8Array) {
  const result = await verifyAuditChain(db.read, key);
  if (result.ok) {
    console.log(`Audit trail verified: ${result.checked} rows, chain intact.`);
  } else {
    const { seq, id, reason } = result.firstBroken;
    fail(
      `Audit trail BROKEN at row seq ${seq} (id ${id}): ${reason}. ${result.checked} rows before it verified.`,
    );
  }
  const checkpoints = await verifyAuditCheckpoints(db.read, key, checkpointTargetOf(config));
  if (checkpoints.ok) {
    const torn = checkpoints.skipped > 0
      ? ` (${checkpoints.skipped} lines cut short by a crash skipped)`
      : "";
    console.log(
      `Checkpoints verified: ${checkpoints.checked} in ${config.auditCheckpointFile}${torn}; ` +
        `the file holds all ${checkpoints.recorded} the trail records.`,
    );
  } else {
    fail(
      `Checkpoints BROKEN: ${checkpoints.problem}. ${checkpoints.checked} checkpoints before it verified.`,
    );
  }
}

if (!await databaseExists(config.databaseUrl)) {
  fail(
    `No database at ${config.databaseUrl}: start the console or add a user first (DATA_DIR, DATABASE_URL).`,
  );
} else {
  const db = await openConfiguredDatabase(config);
  try {
    const keyed = await db.read.all(sql`SELECT 1 FROM sqlite_master WHERE name = 'audit_chain_state'`);
    if (keyed.length === 0) {
      fail(
        "The audit chain is not keyed yet: start the console once with this version (it verifies and keys it).",
      );
    } else {
      const missing = await missingAppendOnlyTriggers(db.read);
      if (missing.length > 0) {
        fail(`Audit trail NOT protected: append-only triggers missing or altered (${missing.join(", ")}).`);
      }
      const key = await useAuditChainKey(config, { create: false }).catch((error: Error) => {
        fail(`Cannot verify: ${error.message}.`);
        return null;
      });
      if (key !== null) await verifyWith(db, key);
    }
  } finally {
    db.close();
  }
}
