/** Entry point: `deno task start` runs this with narrow permissions (see scripts/start.ts). */
import { createApp } from "./app.ts";
import { AuditTrailIntegrityError } from "./audit.ts";
import { useAuditChainKey } from "./audit_chain_key.ts";
import { startAuditCheckpoints } from "./audit_checkpoints.ts";
import { bootstrap } from "./bootstrap.ts";
import { loadConfig } from "./config.ts";
import { startSweepScheduler } from "./features/sweeps/scheduler.ts";

const SHUTDOWN_TIMEOUT_MS = 10_000;

const config = loadConfig();
const deps = await bootstrap(config).catch((error) => {
  if (!(error instanceof AuditTrailIntegrityError)) throw error;
  console.error(error.message);
  Deno.exit(1);
});
const app = createApp(deps);
const sweepScheduler = startSweepScheduler(deps);
const auditCheckpoints = startAuditCheckpoints(
  deps.db.read,
  await useAuditChainKey(config, { create: false }),
  config.auditCheckpointFile,
);
const server = Deno.serve(
  {
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) => console.log(`Console listening on http://${hostname}:${port}`),
  },
  app.fetch,
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  const timer = setTimeout(() => Deno.exit(1), SHUTDOWN_TIMEOUT_MS);
  await server.shutdown();
  // In-flight requests have finished: their request-log entries are queued and written now.
  await app.requestLog.stop();
  await sweepScheduler?.stop();
  await auditCheckpoints.stop();
  deps.db.close();
  clearTimeout(timer);
  Deno.exit(0);
}
Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
