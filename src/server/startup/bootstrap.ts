/**
 * startup/ owns what happens once at start: this module opens and prepares everything the server
 * needs (database, migrations, first administrator), and seed.ts runs the first-start data.
 */
import { checkpointTargetOf, writeAuditCheckpoint } from "../audit/checkpoints.ts";
import { prepareAuditChain } from "../audit/rekey.ts";
import { fillEmailSkeletons } from "../auth/identity.ts";
import { ensureFirstAdmin, logRoleConflicts } from "../auth/users.ts";
import type { Config } from "../config.ts";
import type { AppDeps } from "../http/context.ts";
import { type Database, openDatabase } from "../db/database.ts";
import { openReplicatedDatabase } from "../db/replicated.ts";
import { migrate, missingMigrations } from "../db/migrate.ts";
import { createSecrets, loadSecretsKey } from "../secrets.ts";
import { startClock } from "../topology/clock.ts";
import { narrowReportModes, removeStaleReportParts } from "../features/reports/service.ts";
import { withDeadline } from "../topology/deadline.ts";
import { recordLostChanges } from "../features/system/lost_changes.ts";
import { runSeeds } from "./seed.ts";
import { recordMissingInitialVersions } from "../registry_history/initial_versions.ts";
import type { StartCredential } from "./seeder.ts";
import { ensureDirectoryKey } from "../features/directory/signing_key.ts";
import { type FirstAdministrator, firstAdministratorBlock, oneTimePasswordsBlock } from "./first_sign_in_notes.ts";

/** How long headquarters' start may take to migrate and seed the primary. */
const STARTUP_WRITES_DEADLINE_MS = 300_000;

/** How long a regional node waits for its replica to carry the schema its code needs. */
export const SCHEMA_WAIT_MS = 120_000;

/** The database as the node's role has it: the local file, or a replica of the primary. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  const replication = config.replication;
  if (replication === null) return openDatabase(config.databaseUrl);
  return openReplicatedDatabase(config.databaseUrl, {
    syncUrl: replication.syncUrl,
    authToken: replication.authToken,
    syncIntervalMs: replication.syncIntervalMs,
    syncAfterWrite: replication.role === "headquarters",
  });
}

/**
 * A regional node applies no schema: headquarters does, on the primary. It waits until its replica
 * carries every migration its code needs, and refuses to serve after SCHEMA_WAIT_MS.
 */
async function awaitSchema(db: Database, config: Config, log: (line: string) => void): Promise<void> {
  const deadlineMs = Date.now() + SCHEMA_WAIT_MS;
  let missing = await missingMigrations(db);
  if (missing.length > 0) log(`Waiting for headquarters to apply ${missing.length} migration(s) to the primary…`);
  while (missing.length > 0) {
    if (Date.now() >= deadlineMs) {
      throw new Error(
        `This regional node's code needs schema migrations that the primary does not carry after ` +
          `${SCHEMA_WAIT_MS / 1000} s (first missing: ${missing[0]}). Start or upgrade headquarters first.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, config.replication!.syncIntervalMs));
    await db.replica?.syncNow().catch(() => {});
    missing = await missingMigrations(db);
  }
}

export async function bootstrap(
  config: Config,
  log: (line: string) => void = console.log,
): Promise<AppDeps> {
  const db = await openConfiguredDatabase(config);
  const secrets = createSecrets(await loadSecretsKey(config.dataDir, config.secretsKey));
  const clock = await startClock(db.readPrimaryTime);
  const deps: AppDeps = { db, config, secrets, clock };
  let auditChainKey: Uint8Array;
  let firstAdmin: FirstAdministrator | null = null;
  const credentials: StartCredential[] = [];
  try {
    if (config.role === "regional") {
      await awaitSchema(db, config, log);
      // Headquarters keys the chain on the primary; this node writes to it with the same key.
      auditChainKey = await prepareAuditChain(db, config, log, { keyChain: false });
    } else {
      // One deadline for the start's writes (a first start migrates and seeds), not one per change.
      auditChainKey = await withDeadline(Date.now() + STARTUP_WRITES_DEADLINE_MS, async () => {
        await migrate(db);
        await fillEmailSkeletons(db, log);
        const key = await prepareAuditChain(db, config, log);
        firstAdmin = await ensureFirstAdmin(db, config);
        await logRoleConflicts(db, log);
        await runSeeds(deps, log, (credential) => credentials.push(credential));
        await recordMissingInitialVersions(db);
        await ensureDirectoryKey(db, config.dataDir, new Date(clock.now()).toISOString());
        return key;
      });
    }
  } catch (error) {
    clock.stop();
    db.close();
    throw error;
  }
  // Once the chain's key is registered: a rebuild found at start is reported now.
  db.onRebuilt?.((rebuilt) => recordLostChanges(db, config, rebuilt));
  await removeStaleReportParts(config, log);
  await narrowReportModes(config, log);
  await writeAuditCheckpoint(db, auditChainKey, checkpointTargetOf(config));
  // Last, apart from every other line of the start, so that a newcomer finds them at once.
  const notes = [
    ...(firstAdmin ? firstAdministratorBlock(firstAdmin, config) : []),
    ...oneTimePasswordsBlock(credentials, config.requireMfa),
  ];
  for (const line of notes) log(line);
  return deps;
}
