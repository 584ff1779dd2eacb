/** Entry point: `deno task start` runs this with narrow permissions (see scripts/start.ts). */
import { createApp } from "./http/app.ts";
import { useAuditChainKey } from "./audit/chain_key.ts";
import { checkpointTargetOf, startAuditCheckpoints } from "./audit/checkpoints.ts";
import { bootstrap } from "./startup/bootstrap.ts";
import { loadConfig } from "./config.ts";
import type { AppDeps } from "./http/context.ts";
import { startSweepScheduler } from "./features/sweeps/scheduler.ts";
import { startWebhookWorker } from "./features/webhooks/worker.ts";
import { startExpiryNotices } from "./features/approvals/expiry_notices.ts";
import { startReconciliationWatch } from "./features/ledger/reconciliation_watch.ts";
import { startEmailSender } from "./features/notifications/email_sender.ts";
import { startReportRetention } from "./features/reports/service.ts";
import { startBackupScheduler } from "./backup/runs.ts";
import { startScheduledChanges } from "./registry_history/scheduler.ts";
import { startImportApplier } from "./features/registry_import/applier.ts";
import { startDirectoryPublisher } from "./features/directory/publisher.ts";
import { trustForwardingNodes } from "./topology/forwarding.ts";

const SHUTDOWN_TIMEOUT_MS = 10_000;

const config = loadConfig();
// The replica's native code logs every failed sync, twice a second while the primary is down;
// /api/system/replication and the screens already say so.
if (Deno.env.get("RUST_LOG") === undefined) Deno.env.set("RUST_LOG", "off");
let deps: AppDeps;
try {
  deps = await bootstrap(config);
} catch (error) {
  console.error(`The console cannot start: ${error instanceof Error ? error.message : error}`);
  Deno.exit(1);
}
const app = createApp(deps, {
  trustNodes: config.role === "headquarters" ? await trustForwardingNodes(config) : undefined,
});
// Regional nodes never run it: its lease and its money movements belong next to the primary.
const sweepScheduler = config.role === "regional" ? null : startSweepScheduler(deps);
// Background writers run next to the primary too: delivering webhooks, announcing expired requests and
// ledger differences, e-mailing notifications (a regional node's users get theirs from headquarters'), and
// publishing approved directory editions.
const backgroundTasks = config.role === "regional" ? [] : [
  startWebhookWorker(deps),
  startExpiryNotices(deps.db),
  startReconciliationWatch(deps.db),
  startEmailSender(deps),
  startScheduledChanges(deps),
  startImportApplier(deps.db, () => deps.clock.now()),
  startDirectoryPublisher(deps),
];
// Both at headquarters and on a standalone node only (they answer null on a regional one).
const stopBackups = startBackupScheduler(deps, (line) => console.error(line));
const stopReportRetention = startReportRetention(deps, (line) => console.log(line));
const auditCheckpoints = startAuditCheckpoints(
  deps.db,
  await useAuditChainKey(config, { create: false }),
  checkpointTargetOf(config),
);
const where = config.replication ? ` (${config.role}, region ${config.replication.region})` : "";
const server = Deno.serve(
  {
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) => console.log(`Console listening on http://${hostname}:${port}${where}`),
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
  await Promise.all(backgroundTasks.map((task) => task.stop()));
  stopBackups?.();
  stopReportRetention?.();
  await auditCheckpoints.stop();
  deps.clock.stop();
  deps.db.close();
  clearTimeout(timer);
  Deno.exit(0);
}
Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
