/**
 * Demo routing codes (embedded database only): a few codes for the oldest active demo institutions,
 * assigned through the service so each has its audit row. Runs after the institutions demo seed;
 * without institutions it does nothing, and once any routing code exists it adds nothing.
 */
import { asc, eq } from "drizzle-orm";
import { institutions, routingCodes, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import { assignRoutingCode } from "./service.ts";

const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

/** One entry per institution, in registration order. */
const DEMO_ASSIGNMENTS: readonly {
  prefix: string;
  codes: { branchCode: string | null; description: string }[];
}[] = [
  {
    prefix: "CBR",
    codes: [
      { branchCode: "001", description: "Head office clearing" },
      { branchCode: "014", description: "Harbor district branch" },
    ],
  },
  { prefix: "MCB", codes: [{ branchCode: "001", description: "Head office clearing" }] },
  { prefix: "UTS", codes: [{ branchCode: null, description: "Savings settlement" }] },
  { prefix: "NFC", codes: [{ branchCode: "003", description: "Rural branch network" }] },
  { prefix: "CBR", codes: [{ branchCode: "100", description: "Development lending desk" }] },
];

export const routingCodesDemoSeeder: Seeder = async (deps, log) => {
  const existing = await deps.db.read.select({ id: routingCodes.id }).from(routingCodes).limit(1).get();
  if (existing !== undefined) return;
  const owners = await deps.db.read.select({ id: institutions.id }).from(institutions)
    .where(eq(institutions.status, "active")).orderBy(asc(institutions.createdAt), asc(institutions.id))
    .limit(DEMO_ASSIGNMENTS.length).all();
  if (owners.length === 0) {
    log("Routing codes demo: skipped, no active institutions");
    return;
  }
  let assigned = 0;
  for (const [index, owner] of owners.entries()) {
    const { prefix, codes } = DEMO_ASSIGNMENTS[index];
    for (const code of codes) {
      await assignRoutingCode(
        deps.db,
        SYSTEM_ACTOR,
        { institutionId: owner.id, prefix, ...code, effectiveFrom: null },
        deps.clock.now(),
      );
      assigned++;
    }
  }
  log(`Routing codes demo: assigned ${assigned} codes`);
};
