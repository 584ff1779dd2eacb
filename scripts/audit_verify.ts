/** `deno task audit:verify`: checks the audit trail's hash chain and names the first broken row. */
import { verifyAuditChain } from "../src/server/audit.ts";
import { loadConfig } from "../src/server/config.ts";
import { openConfiguredDatabase } from "../src/server/bootstrap.ts";

const config = loadConfig();
const db = await openConfiguredDatabase(config);
try {
  const result = await verifyAuditChain(db.read);
  if (result.ok) {
    console.log(`Audit trail verified: ${result.checked} rows, chain intact.`);
  } else {
    const { seq, id, reason } = result.firstBroken;
    console.error(`Audit trail BROKEN at row seq ${seq} (id ${id}): ${reason}. ${result.checked} rows before it verified.`);
    Deno.exitCode = 1;
  }
} finally {
  db.close();
}
