/** Opens and prepares everything the server needs: database, migrations, first admin, seeds. */
import { writeAuditCheckpoint } from "./audit_checkpoints.ts";
import { prepareAuditChain } from "./audit_rekey.ts";
import { ensureFirstAdmin } from "./auth/users.ts";
import type { Config } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { openDatabase } from "./db.ts";
import { migrate } from "./migrate.ts";
import { createSecrets, loadSecretsKey } from "./secrets.ts";
import { removeStaleReportParts } from "./features/reports/service.ts";
import { runSeeds } from "./seed.ts";

export async function bootstrap(
  config: Config,
  log: (line: string) => void = console.log,
): Promise<AppDeps> {
  const db = await openDatabase(config.databaseUrl);
  await migrate(db);
  const auditChainKey = await prepareAuditChain(db, config, log);
  const secrets = createSecrets(await loadSecretsKey(config.dataDir, config.secretsKey));
  const deps: AppDeps = { db, config, secrets };
  await ensureFirstAdmin(db, config, log);
  await runSeeds(deps, log);
  await removeStaleReportParts(config, log);
  await writeAuditCheckpoint(db.read, auditChainKey, config.auditCheckpointFile);
  return deps;
}
