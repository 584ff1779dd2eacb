/**
 * A separate app process for the scheduler lease test: opens the shared database and tries to
 * run one scheduled occurrence, printing the result as JSON.
 * Usage: deno run -A sweep_schedule_worker.ts DATABASE_URL SCHEDULE OCCURRENCE_ISO INSTANCE_ID
 */
import { openDatabase } from "../../src/server/db/database.ts";
import { runScheduledOccurrence } from "../../src/server/features/sweeps/scheduler.ts";
import { useChainKeyOfDatabase } from "../helpers/test_app.ts";

const [databaseUrl, schedule, occurrence, instanceId] = Deno.args;
await useChainKeyOfDatabase(databaseUrl);
const db = await openDatabase(databaseUrl);
try {
  console.log(JSON.stringify(await runScheduledOccurrence(db, schedule, new Date(occurrence), instanceId)));
} finally {
  db.close();
}
