/**
 * First-start data. Reference data (IBAN formats, funding accounts) is always seeded; demo data
 * only into the embedded default database and only unless SEED_DEMO=0, never into a configured
 * DATABASE_URL, and into a headquarters' primary only with SEED_DEMO=1.
 */
import type { AppDeps } from "../http/context.ts";
import type { Seeder, StartCredential } from "./seeder.ts";
import { nationalRoutingDemoSeeder } from "../features/national_routing/seed.ts";
import { centralBankConnectionsDemoSeeder } from "../features/central_bank_connections/seed.ts";
import { ledgerDemoSeeder } from "../features/ledger/seed.ts";
import { seedFundingSources } from "../features/cards/seed.ts";
import { ibanRegistrySeeder } from "../features/iban/seed.ts";
import { institutionsDemoSeeder } from "../features/institutions/seed.ts";
import { routingCodesDemoSeeder } from "../features/routing_codes/seed.ts";
import { swiftCodesDemoSeeder } from "../features/swift_codes/seed.ts";
import { staffDemoSeeder } from "../features/users/seed.ts";

const referenceSeeders: Seeder[] = [
  seedFundingSources,
  ibanRegistrySeeder,
];
const demoSeeders: Seeder[] = [
  staffDemoSeeder,
  // First: other demo data refers to institutions.
  institutionsDemoSeeder,
  routingCodesDemoSeeder,
  swiftCodesDemoSeeder,
  ledgerDemoSeeder,
  nationalRoutingDemoSeeder,
  centralBankConnectionsDemoSeeder,
];

export async function runSeeds(
  deps: AppDeps,
  log: (line: string) => void,
  credentials: (credential: StartCredential) => void,
): Promise<void> {
  for (const seed of referenceSeeders) await seed(deps, log, credentials);
  if (deps.config.seedDemo) {
    for (const seed of demoSeeders) await seed(deps, log, credentials);
  }
}
