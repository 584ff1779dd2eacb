/**
 * Demo registry (embedded database only, unless SEED_DEMO=0): three dozen fictitious institutions
 * across every type and status, registered over the past fourteen months so the dashboard's
 * "this month" figures and the recent registrations have something to show. Each one is created
 * and moved along its lifecycle through the service, so the audit trail explains every row.
 * Institutions whose registration number already exists are skipped: a second start adds nothing.
 */
import { inArray } from "drizzle-orm";
import { institutions, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { InstitutionStatus, InstitutionType, SwiftMembershipType } from "../../../domain/institution.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import type { Institution } from "./schemas.ts";
import { insertInstitution } from "./service.ts";
import { applyStatusChange } from "./status_changes.ts";

const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };
const MS_PER_DAY = 86_400_000;
/** Demo data is nobody's request and nobody's approval. */
const SEEDED = { requestedBy: SYSTEM_USER_ID, approvedBy: null, approvalRequestId: null };

/** An institution as the register lists it: its SWIFT membership (or none) and its age stand for the rest. */
type DemoInstitution =
  & Omit<
    Institution,
    | "id"
    | "swiftParticipant"
    | "swiftMembershipType"
    | "createdAt"
    | "updatedAt"
    | "createdBy"
    | "status"
    | "lei"
    | "successorId"
    | "successor"
    | "terminatedAt"
    | "deletionAnnounced"
  >
  & {
    status: InstitutionStatus;
    swift: SwiftMembershipType | null;
    /** Registration date relative to the first start. */
    daysAgo: number;
  };

/** The lifecycle steps from pending that end in each status. */
const PATH_TO: Record<InstitutionStatus, InstitutionStatus[]> = {
  pending: [],
  active: ["active"],
  suspended: ["active", "suspended"],
};

const demo = (
  name: string,
  type: InstitutionType,
  serial: number,
  domain: string,
  address: string,
  numberOfBranches: number,
  swift: SwiftMembershipType | null,
  status: InstitutionStatus,
  daysAgo: number,
): DemoInstitution => ({
  name,
  type,
  registrationNumber: `CBR-${type === "credit_union" ? "CU" : type.slice(0, 2).toUpperCase()}-${
    String(serial).padStart(5, "0")
  }`,
  // Institutions still under review have not been issued a licence yet.
  licenseNumber: status === "pending" && serial % 2 === 0 ? null : `LIC-${String(2_000 + serial)}`,
  address,
  phoneNumber: `+1 202 555 ${String(100 + serial).padStart(4, "0")}`,
  emailAddress: `compliance@${domain}.example`,
  numberOfBranches,
  swift,
  status,
  daysAgo,
});

// One institution per line reads as a register; the formatter would spread each over eleven lines.
// deno-fmt-ignore
export const DEMO_INSTITUTIONS: readonly DemoInstitution[] = [
  demo("First National Bank of Harbor City", "commercial", 1, "firstnationalharbor", "1 Harbor Plaza, Harbor City", 142, "full", "active", 420),
  demo("Meridian Commercial Bank", "commercial", 2, "meridianbank", "200 Meridian Avenue, Capital City", 87, "full", "active", 410),
  demo("Union Trust Savings Bank", "savings", 3, "uniontrustsavings", "45 Union Street, Westport", 23, "correspondent", "active", 395),
  demo("Northern Farmers Credit Union", "credit_union", 4, "northernfarmerscu", "12 Grain Road, Fairfield", 9, null, "active", 380),
  demo("National Development Bank", "development", 5, "ndb", "8 Treasury Square, Capital City", 6, "full", "active", 366),
  demo("Atlas Investment Bank", "investment", 6, "atlasib", "77 Exchange Street, Capital City", 4, "full", "active", 350),
  demo("Coastal Savings & Loan", "savings", 7, "coastalsavings", "310 Shoreline Drive, Bayview", 15, null, "active", 331),
  demo("Teachers' Mutual Credit Union", "credit_union", 8, "teachersmutual", "5 Campus Way, Eastvale", 7, null, "active", 318),
  demo("Pioneer Commercial Bank", "commercial", 9, "pioneerbank", "18 Frontier Boulevard, Ridgeview", 54, "subgroup", "suspended", 302),
  demo("Highland Agricultural Development Fund", "development", 10, "highlandadf", "3 Valley Road, Highland", 11, null, "active", 290),
  demo("Sterling Capital Partners", "investment", 11, "sterlingcapital", "90 Market Street, Capital City", 2, "correspondent", "active", 274),
  demo("Riverside Community Savings Bank", "savings", 12, "riversidesavings", "61 River Lane, Millbrook", 12, null, "suspended", 260),
  demo("Metro Commercial Bank", "commercial", 13, "metrobank", "400 Central Avenue, Capital City", 96, "full", "active", 243),
  demo("Public Servants Credit Union", "credit_union", 14, "publicservantscu", "22 Civic Center, Capital City", 5, null, "active", 229),
  demo("Infrastructure Finance Corporation", "development", 15, "infrafin", "14 Builders Row, Port Royal", 3, "subgroup", "active", 214),
  demo("Bayview Savings Bank", "savings", 16, "bayviewsavings", "9 Marina Street, Bayview", 18, "correspondent", "active", 198),
  demo("Summit Securities & Investment", "investment", 17, "summitsecurities", "55 Summit Tower, Capital City", 1, "correspondent", "suspended", 185),
  demo("Commonwealth Commercial Bank", "commercial", 18, "commonwealthbank", "100 Commonwealth Road, Northgate", 73, "full", "active", 170),
  demo("Fishermen's Cooperative Credit Union", "credit_union", 19, "fishermenscu", "2 Dockside Lane, Port Royal", 4, null, "suspended", 156),
  demo("Export-Import Development Bank", "development", 20, "eximdev", "6 Trade Center, Capital City", 5, "full", "active", 141),
  demo("Greenfield Savings Bank", "savings", 21, "greenfieldsavings", "27 Orchard Street, Greenfield", 10, null, "active", 127),
  demo("Keystone Commercial Bank", "commercial", 22, "keystonebank", "33 Keystone Plaza, Ridgeview", 38, "subgroup", "active", 112),
  demo("Horizon Asset Management Bank", "investment", 23, "horizonam", "12 Horizon Street, Capital City", 3, null, "active", 98),
  demo("Healthcare Workers Credit Union", "credit_union", 24, "healthcarecu", "40 Hospital Road, Eastvale", 6, null, "active", 84),
  demo("Small Business Development Bank", "development", 25, "sbdb", "19 Enterprise Way, Millbrook", 14, "correspondent", "active", 70),
  demo("Lakeside Savings Bank", "savings", 26, "lakesidesavings", "8 Lakefront Drive, Lakeside", 8, null, "pending", 58),
  demo("Crescent Commercial Bank", "commercial", 27, "crescentbank", "250 Crescent Street, Westport", 21, "full", "active", 45),
  demo("Veterans Mutual Credit Union", "credit_union", 28, "veteransmutual", "7 Memorial Avenue, Northgate", 3, null, "pending", 33),
  demo("Blue Ridge Investment Bank", "investment", 29, "blueridgeib", "66 Ridge Road, Capital City", 2, "subgroup", "pending", 24),
  demo("Capital City Commercial Bank", "commercial", 30, "capitalcitybank", "1 Parliament Street, Capital City", 64, "full", "active", 16),
  demo("Housing Finance Development Bank", "development", 31, "housingfinance", "25 Homestead Road, Fairfield", 9, null, "pending", 9),
  demo("Evergreen Savings Bank", "savings", 32, "evergreensavings", "17 Pine Street, Highland", 5, null, "active", 6),
  demo("Transit Workers Credit Union", "credit_union", 33, "transitcu", "3 Depot Square, Capital City", 2, null, "pending", 4),
  demo("Oakmont Commercial Bank", "commercial", 34, "oakmontbank", "88 Oakmont Avenue, Ridgeview", 12, "correspondent", "active", 2),
  demo("Granite Private Investment Bank", "investment", 35, "graniteprivate", "5 Granite Court, Capital City", 1, null, "pending", 1),
  demo("Harbor City Savings Cooperative", "savings", 36, "harborcitycoop", "44 Quay Street, Harbor City", 3, null, "pending", 0),
];

export const institutionsDemoSeeder: Seeder = async (deps, log) => {
  const now = Date.now();
  const created = await deps.db.transaction(async (tx) => {
    const existing = new Set(
      (await tx.select({ registrationNumber: institutions.registrationNumber }).from(institutions)
        .where(inArray(institutions.registrationNumber, DEMO_INSTITUTIONS.map((d) => d.registrationNumber)))
        .all())
        .map((row) => row.registrationNumber),
    );
    let count = 0;
    // Oldest first, so registration order (which orders search results) follows the dates.
    for (const entry of [...DEMO_INSTITUTIONS].sort((a, b) => b.daysAgo - a.daysAgo)) {
      if (existing.has(entry.registrationNumber)) continue;
      const institution = await insertInstitution(tx, SYSTEM_ACTOR, {
        name: entry.name,
        type: entry.type,
        registrationNumber: entry.registrationNumber,
        licenseNumber: entry.licenseNumber,
        address: entry.address,
        phoneNumber: entry.phoneNumber,
        emailAddress: entry.emailAddress,
        numberOfBranches: entry.numberOfBranches,
        swiftParticipant: entry.swift !== null,
        swiftMembershipType: entry.swift,
        lei: null,
      }, { createdAt: new Date(now - entry.daysAgo * MS_PER_DAY).toISOString() });
      for (const status of PATH_TO[entry.status]) {
        await applyStatusChange(tx, SYSTEM_ACTOR, institution.id, { status, reason: null }, SEEDED, now);
      }
      count++;
    }
    return count;
  });
  if (created > 0) log(`seed: ${created} demo institutions`);
};
