/**
 * Demo data (embedded database only): two partner connections, added once each. The pre-configured
 * partner is left out so the screen still offers it.
 */
import { eq } from "drizzle-orm";
import { centralBankConnections, SYSTEM_USER_ID } from "../../../../db/schema.ts";
import type { Actor } from "../../audit/trail.ts";
import type { Seeder } from "../../startup/seeder.ts";
import type { CreateConnectionInput } from "./schemas.ts";
import { createConnection } from "./service.ts";

const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: null };

const DEMO_CONNECTIONS: CreateConnectionInput[] = [
  {
    partnerCentralBank: "Reserve Bank of Northland",
    connectionType: "bilateral",
    partnerBankCode: "RBN-001",
    partnerSwiftCode: "RBNLNL2A",
    connectionStatus: "pending",
    messageStandard: "iso20022",
    settlementCurrency: "EUR",
    dailySettlementLimit: 500_000_000_00,
    apiEndpoint: "https://api.reserve-northland.example/iso20022/v2",
    authenticationMethod: "oauth2",
    credentialsConfig: {
      authenticationType: "oauth2",
      clientId: "cbr-console-demo",
      clientSecret: "demo-only-not-a-real-secret",
    },
  },
  {
    partnerCentralBank: "Southern Monetary Authority",
    connectionType: "correspondent",
    partnerBankCode: "SMA-014",
    partnerSwiftCode: null,
    connectionStatus: "suspended",
    messageStandard: "swift_mt103",
    settlementCurrency: "USD",
    dailySettlementLimit: null,
    apiEndpoint: null,
    authenticationMethod: "mutual_tls",
    credentialsConfig: {
      authenticationType: "mutual_tls",
      connectionType: "correspondent",
      messageStandard: "swift_mt103",
    },
  },
];

export const centralBankConnectionsDemoSeeder: Seeder = async (deps, log) => {
  let added = 0;
  for (const connection of DEMO_CONNECTIONS) {
    const existing = await deps.db.read.select({ id: centralBankConnections.id }).from(centralBankConnections)
      .where(eq(centralBankConnections.partnerCentralBank, connection.partnerCentralBank)).get();
    if (existing !== undefined) continue;
    await createConnection(deps.db, deps.secrets, SYSTEM_ACTOR, connection);
    added++;
  }
  if (added > 0) log(`seed: ${added} central bank connections (demo)`);
};
