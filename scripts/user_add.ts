/**
 * `deno task user:add --email a@b.c [--first-name A] [--last-name B] [--role ROLE]...`
 * Makes an operator unless roles are given (administrator, operator, approver, auditor; repeat
 * --role for several). Reads the password from USER_PASSWORD, or prompts for it (never from the
 * command line, where it would land in shell history).
 */
import { parseArgs } from "node:util";
import { isRole, ROLES } from "../src/domain/access.ts";
import { createUser } from "../src/server/auth/users.ts";
import { soleGrant } from "../src/server/auth/role_grants.ts";
import { fillEmailSkeletons } from "../src/server/auth/identity.ts";
import { loadConfig } from "../src/server/config.ts";
import { openConfiguredDatabase } from "../src/server/startup/bootstrap.ts";
import { AppError } from "../src/server/http/errors.ts";
import { migrate } from "../src/server/db/migrate.ts";
import { AuditTrailIntegrityError } from "../src/server/audit/trail.ts";
import { checkpointTargetOf, writeAuditCheckpoint } from "../src/server/audit/checkpoints.ts";
import { prepareAuditChain } from "../src/server/audit/rekey.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    email: { type: "string" },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
    role: { type: "string", multiple: true, default: ["operator"] },
  },
});
if (!values.email) {
  console.error(`usage: deno task user:add --email EMAIL [--first-name NAME] [--last-name NAME] [--role ${ROLES.join("|")}]...`);
  Deno.exit(2);
}
const roles = values.role.filter(isRole);
if (roles.length !== values.role.length) {
  console.error(`--role must be one of ${ROLES.join(", ")}`);
  Deno.exit(2);
}
const password = Deno.env.get("USER_PASSWORD") ?? prompt("Password (at least 12 characters, not easy to guess):") ?? "";
const config = loadConfig();
const db = await openConfiguredDatabase(config);
try {
  const regional = config.role === "regional";
  if (!regional) {
    await migrate(db);
    await fillEmailSkeletons(db, console.log);
  }
  const auditChainKey = await prepareAuditChain(db, config, console.log, { keyChain: !regional });
  const user = await createUser(db, config, {
    email: values.email,
    password,
    firstName: values["first-name"] ?? null,
    lastName: values["last-name"] ?? null,
    roles,
  }, soleGrant(null));
  await writeAuditCheckpoint(db, auditChainKey, checkpointTargetOf(config));
  console.log(`Created user ${user.email} (${user.id}) with the roles ${roles.join(", ")}.`);
} catch (error) {
  if (error instanceof AppError || error instanceof AuditTrailIntegrityError) {
    console.error(`Could not create the user: ${error.message}`);
    Deno.exitCode = 1;
  } else {
    throw error;
  }
} finally {
  db.close();
}
