/**
 * Connections to partner central banks. Credentials are encrypted at rest (AES-256-GCM through
 * deps.secrets) and only ever leave the server masked, in responses and in audit rows alike.
 *
 * A successful connection test records lastConnectedAt and moves a pending (or testing) connection
 * to active; a failed test changes nothing but its audit row and the event that tells administrators.
 * Suspended connections stay suspended whatever the test says: suspension is an administrative
 * decision, not a network state.
 */
import { desc, eq, sql } from "drizzle-orm";
import { centralBankConnections, users } from "../../../../db/schema.ts";
import { maskCredentials } from "../../../domain/connection_credentials.ts";
import { formatMoney } from "../../../domain/money.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { publishEvent } from "../../events/outbox.ts";
import { redactText } from "../../../domain/redaction.ts";
import { conflict, notFound } from "../../http/errors.ts";
import type { Secrets } from "../../secrets.ts";
import type { PartnerConfig } from "./partner_config.ts";
import type { ProbeResult } from "./probe.ts";
import type { Connection, CreateConnectionInput } from "./schemas.ts";

export const AUDIT_ENTITY_TYPE = "central_bank_connection";
/** Statuses a successful test promotes to active. */
const ACTIVATED_BY_SUCCESSFUL_TEST: ReadonlySet<string> = new Set(["pending", "testing"]);

type ConnectionRow = typeof centralBankConnections.$inferSelect;
type Creator = Connection["createdByUser"];

async function present(row: ConnectionRow, creator: Creator, secrets: Secrets): Promise<Connection> {
  const credentials = row.credentialsConfigEncrypted === null
    ? null
    : maskCredentials(JSON.parse(await secrets.decrypt(row.credentialsConfigEncrypted)));
  return {
    id: row.id,
    partnerCentralBank: row.partnerCentralBank,
    connectionType: row.connectionType,
    partnerBankCode: row.partnerBankCode,
    partnerSwiftCode: row.partnerSwiftCode,
    connectionStatus: row.connectionStatus,
    messageStandard: row.messageStandard,
    settlementCurrency: row.settlementCurrency,
    dailySettlementLimit: row.dailySettlementLimitMinor === null
      ? null
      : formatMoney(BigInt(row.dailySettlementLimitMinor)),
    apiEndpoint: row.apiEndpoint,
    authenticationMethod: row.authenticationMethod,
    credentialsConfig: credentials,
    establishedDate: row.establishedDate,
    lastConnectedAt: row.lastConnectedAt,
    createdBy: row.createdBy,
    createdByUser: creator,
  };
}

function selectWithCreator(db: Queryable) {
  return db.select({
    row: centralBankConnections,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
  })
    .from(centralBankConnections)
    .leftJoin(users, eq(users.id, centralBankConnections.createdBy));
}

function creatorOf(
  row: ConnectionRow,
  firstName: string | null,
  lastName: string | null,
  email: string | null,
): Creator {
  return row.createdBy === null || email === null ? null : { firstName, lastName, email };
}

export async function listConnections(db: Queryable, secrets: Secrets): Promise<Connection[]> {
  // rowid breaks ties between connections established within the same millisecond.
  const rows = await selectWithCreator(db)
    .orderBy(desc(centralBankConnections.establishedDate), sql`${centralBankConnections}.rowid DESC`).all();
  return Promise.all(
    rows.map(({ row, firstName, lastName, email }) =>
      present(row, creatorOf(row, firstName, lastName, email), secrets)
    ),
  );
}

export async function findConnection(db: Queryable, id: string): Promise<ConnectionRow> {
  const row = await db.select().from(centralBankConnections).where(eq(centralBankConnections.id, id)).get();
  if (row === undefined) throw notFound("Central bank connection");
  return row;
}

async function insertConnection(
  db: Database,
  secrets: Secrets,
  actor: Actor,
  input: CreateConnectionInput,
  options: { action: string; unlessPartnerNameContains?: string },
): Promise<Connection> {
  const now = new Date().toISOString();
  const row: ConnectionRow = {
    id: crypto.randomUUID(),
    partnerCentralBank: input.partnerCentralBank,
    connectionType: input.connectionType,
    partnerBankCode: input.partnerBankCode,
    partnerSwiftCode: input.partnerSwiftCode,
    connectionStatus: input.connectionStatus,
    messageStandard: input.messageStandard,
    settlementCurrency: input.settlementCurrency,
    dailySettlementLimitMinor: input.dailySettlementLimit,
    apiEndpoint: input.apiEndpoint,
    authenticationMethod: input.authenticationMethod,
    credentialsConfigEncrypted: input.credentialsConfig === null
      ? null
      : await secrets.encrypt(JSON.stringify(input.credentialsConfig)),
    establishedDate: now,
    lastConnectedAt: null,
    createdBy: actor.userId,
  };
  return await db.transaction(async (tx) => {
    const name = options.unlessPartnerNameContains;
    if (name !== undefined) {
      const existing = await tx.select({ id: centralBankConnections.id }).from(centralBankConnections)
        .where(sql`instr(lower(${centralBankConnections.partnerCentralBank}), lower(${name})) > 0`).get();
      if (existing !== undefined) {
        throw conflict("partnerCentralBank", `A connection to ${name} already exists`);
      }
    }
    await tx.insert(centralBankConnections).values(row);
    const creator = await tx.select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users).where(eq(users.id, actor.userId)).get();
    const connection = await present(row, creator ?? null, secrets);
    await recordCreation(tx, actor, AUDIT_ENTITY_TYPE, row.id, connection, options.action);
    return connection;
  });
}

export function createConnection(
  db: Database,
  secrets: Secrets,
  actor: Actor,
  input: CreateConnectionInput,
): Promise<Connection> {
  return insertConnection(db, secrets, actor, input, { action: "create" });
}

/** Creates the pre-configured partner's connection once; a second call is a 409. */
export function establishPartnerConnection(
  db: Database,
  secrets: Secrets,
  actor: Actor,
  partner: PartnerConfig,
): Promise<Connection> {
  return insertConnection(db, secrets, actor, {
    partnerCentralBank: partner.partnerCentralBank,
    connectionType: partner.connectionType,
    partnerBankCode: partner.partnerBankCode,
    partnerSwiftCode: partner.partnerSwiftCode,
    connectionStatus: "pending",
    messageStandard: partner.messageStandard,
    settlementCurrency: partner.settlementCurrency,
    dailySettlementLimit: partner.dailySettlementLimit,
    apiEndpoint: partner.apiEndpoint,
    authenticationMethod: partner.authenticationMethod,
    credentialsConfig: { ...partner.credentialsTemplate, connectionTimestamp: new Date().toISOString() },
  }, { action: "establish", unlessPartnerNameContains: partner.associationName });
}

/** Audits one test and, on success, records the contact. */
export async function recordTestResult(
  db: Database,
  actor: Actor,
  id: string,
  result: ProbeResult,
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findConnection(tx, id);
    const after = { connectionStatus: before.connectionStatus, lastConnectedAt: before.lastConnectedAt };
    if (result.success) {
      after.lastConnectedAt = new Date().toISOString();
      if (ACTIVATED_BY_SUCCESSFUL_TEST.has(before.connectionStatus)) after.connectionStatus = "active";
      await tx.update(centralBankConnections).set(after).where(eq(centralBankConnections.id, id));
    }
    await recordAudit(tx, actor, {
      entityType: AUDIT_ENTITY_TYPE,
      entityId: id,
      action: "test",
      changes: {
        endpoint: before.apiEndpoint,
        result: {
          success: result.success,
          message: result.message,
          latencyMs: result.latencyMs,
          statusCode: result.statusCode,
        },
        before: { connectionStatus: before.connectionStatus, lastConnectedAt: before.lastConnectedAt },
        after,
      },
    });
    if (!result.success) await announceFailedTest(tx, before, result, actor.userId);
  });
}

/** Tells the other administrators, who manage connections; the tester has the answer on screen. */
async function announceFailedTest(tx: Tx, connection: ConnectionRow, result: ProbeResult, testerId: string) {
  await publishEvent(tx, {
    kind: "connection_test_failed",
    subjectType: AUDIT_ENTITY_TYPE,
    subjectId: connection.id,
    summary: `The connection test to ${connection.partnerCentralBank} failed: ${redactText(result.message)}`,
    link: "/central-bank-connections",
    data: { statusCode: result.statusCode, latencyMs: result.latencyMs },
    audience: { roles: ["administrator"], exclude: testerId },
  });
}
