/**
 * Demo BICs (embedded database only): one BIC for each of the oldest SWIFT-participant demo
 * institutions, registered through the service so each has its audit row. The party prefix comes
 * from the institution's initials; the location code "33" is an ordinary live-style location.
 * Runs after the institutions demo seed; without institutions it does nothing, and once any BIC
 * exists it adds nothing.
 */
import { asc, eq } from "drizzle-orm";
import { institutions, swiftCodes, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import { BIC_PARTY_PREFIX_LENGTH, validateBic } from "../../../domain/bic.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import { findSwiftCode, registerSwiftCode } from "./service.ts";

const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };
const DEMO_BIC_COUNT = 6;
const DEMO_COUNTRY_CODE = "US";
const DEMO_LOCATION_CODE = "33";

/** "First National Bank of Harbor City" → "FNBO": initials, then the name's letters, to four. */
export function demoPartyPrefix(name: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z ]/g, "");
  const initials = letters.split(" ").filter(Boolean).map((word) => word[0]).join("");
  return (initials + letters.replaceAll(" ", "")).slice(0, BIC_PARTY_PREFIX_LENGTH);
}

export const swiftCodesDemoSeeder: Seeder = async (deps, log) => {
  const existing = await deps.db.read.select({ id: swiftCodes.id }).from(swiftCodes).limit(1).get();
  if (existing !== undefined) return;
  const participants = await deps.db.read.select({
    id: institutions.id,
    name: institutions.name,
    membershipType: institutions.swiftMembershipType,
  }).from(institutions).where(eq(institutions.swiftParticipant, true))
    .orderBy(asc(institutions.createdAt), asc(institutions.id)).limit(DEMO_BIC_COUNT).all();
  if (participants.length === 0) {
    log("SWIFT/BIC demo: skipped, no SWIFT-participant institutions");
    return;
  }
  let registered = 0;
  for (const participant of participants) {
    const bicCode = `${demoPartyPrefix(participant.name)}${DEMO_COUNTRY_CODE}${DEMO_LOCATION_CODE}`;
    if (!validateBic(bicCode).ok || await findSwiftCode(deps.db.read, bicCode) !== undefined) continue;
    await registerSwiftCode(deps.db, SYSTEM_ACTOR, {
      institutionId: participant.id,
      bicCode,
      membershipType: participant.membershipType,
      validFrom: null,
      validUntil: null,
      effectiveFrom: null,
    }, deps.clock.now());
    registered++;
  }
  log(`SWIFT/BIC demo: registered ${registered} BICs`);
};
