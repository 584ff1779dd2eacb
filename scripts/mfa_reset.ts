/**
 * `deno task user:reset-mfa --email a@b.c`: removes a user's authenticator and recovery codes and
 * ends their sessions, for a lost phone. They enrol again at their next sign-in. Run by whoever
 * operates the server, so it also serves as the break-glass path for the last administrator.
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { SYSTEM_USER_ID, users } from "../db/schema.ts";
import { resetSecondFactor } from "../src/server/auth/second_factor.ts";
import { checkpointTargetOf, writeAuditCheckpoint } from "../src/server/audit/checkpoints.ts";
import { prepareAuditChain } from "../src/server/audit/rekey.ts";
import { openConfiguredDatabase } from "../src/server/startup/bootstrap.ts";
import { loadConfig } from "../src/server/config.ts";
import { migrate } from "../src/server/db/migrate.ts";

const { values } = parseArgs({ args: Deno.args, options: { email: { type: "string" } } });
if (!values.email) {
  console.error("usage: deno task user:reset-mfa --email EMAIL");
  Deno.exit(2);
}
const config = loadConfig();
const db = await openConfiguredDatabase(config);
try {
  const regional = config.role === "regional";
  if (!regional) await migrate(db);
  // The reset writes an audit row, which the chain's key signs.
  const auditChainKey = await prepareAuditChain(db, config, console.log, { keyChain: !regional });
  const email = values.email.trim().toLowerCase();
  const user = await db.read.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (!user) {
    console.error(`No user ${email}.`);
    Deno.exitCode = 1;
  } else if (await resetSecondFactor(db, user.id, SYSTEM_USER_ID)) {
    console.log(
      `Removed the second factor of ${email} and ended their sessions; they enrol again at the next sign-in.`,
    );
  } else {
    console.log(`${email} had no second factor; their sessions are ended.`);
  }
  await writeAuditCheckpoint(db, auditChainKey, checkpointTargetOf(config));
} finally {
  db.close();
}
