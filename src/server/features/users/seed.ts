/**
 * Demo staff (embedded database, SEED_DEMO≠0): a second administrator, an operator and an approver,
 * made as if under dual control, so that a newcomer can try every flow at once: a request by one
 * administrator approved by the other, a sweep requested by the operator and approved by the
 * approver. Their one-time passwords are printed once, in the start log's block of its own.
 */
import { sql } from "drizzle-orm";
import { SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { Role } from "../../../domain/access.ts";
import type { Actor } from "../../audit/trail.ts";
import { SEED_GRANT } from "../../auth/role_grants.ts";
import type { Seeder } from "../../startup/seeder.ts";
import { createStaffUser } from "./service.ts";

const SEED_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "demo-seed" };

const DEMO_STAFF: readonly { email: string; firstName: string; lastName: string; roles: Role[] }[] = [
  { email: "admin2@centralbank.local", firstName: "Second", lastName: "Administrator", roles: ["administrator"] },
  { email: "operator@centralbank.local", firstName: "Demo", lastName: "Operator", roles: ["operator"] },
  { email: "approver@centralbank.local", firstName: "Demo", lastName: "Approver", roles: ["approver"] },
];

export const staffDemoSeeder: Seeder = async ({ db, config }, log, credentials) => {
  const [row] = await db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM users WHERE id <> ${SYSTEM_USER_ID}`);
  // Only beside the first administrator of a fresh database: never into one that has staff of its own.
  if ((row?.n ?? 0) !== 1) return;
  for (const person of DEMO_STAFF) {
    const { initialPassword } = await createStaffUser(db, config, SEED_ACTOR, person, SEED_GRANT);
    credentials({ email: person.email, role: person.roles[0], password: initialPassword });
  }
  log(`Demo staff: ${DEMO_STAFF.length} people, made as if under dual control.`);
};
