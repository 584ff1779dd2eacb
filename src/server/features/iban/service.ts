/** IBAN validation against the stored country formats, and administration of those formats. */
import { asc, desc, eq } from "drizzle-orm";
import { ibanConfigs } from "../../../../db/schema.ts";
import { PRIMARY_OFFICE_BRANCH_CODE } from "../../../domain/bic.ts";
import {
  checkIbanCountryFormat,
  type IbanCountryFormat,
  parseBbanStructure,
  validateIban,
} from "../../../domain/iban.ts";
import { type Actor, recordAudit, recordCreation } from "../../audit/trail.ts";
import type { Database, Queryable, Tx } from "../../db/database.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { ibanFormats, invalidateIbanFormats, toCountryFormat } from "./format_cache.ts";
import type {
  CreateIbanConfigInput,
  IbanConfig,
  IbanInstitution,
  IbanValidationResponse,
  UpdateIbanConfigInput,
} from "./schemas.ts";

/** A BIC's party prefix has four characters; only a bank code that starts with four letters can be one. */
const BIC_STYLE_BANK_CODE = /^[A-Z]{4}/;
const BIC_PARTY_PREFIX_LENGTH = 4;

/**
 * The institution behind a valid IBAN's bank code: an active, currently valid registered BIC of the
 * IBAN's country whose party prefix equals the bank code's first four characters, when those are
 * letters (GB "NWBK", NL "ABNA", MT "MALT", SC "SSCB11" → "SSCB"). Numeric national bank codes
 * (DE, FR, …) have no fixed relation to a BIC, so they are never matched. The primary office
 * (no branch or "XXX") wins over branches, then the oldest registration.
 *
 * A prepared statement on the read connection: this runs on every such validation, and building the
 * query through drizzle costs several times the indexed lookup (swift_codes_country_bank_idx) itself.
 */
export async function findInstitutionForBankCode(
  db: Database,
  countryCode: string,
  bankCode: string,
): Promise<IbanInstitution | null> {
  if (!BIC_STYLE_BANK_CODE.test(bankCode)) return null;
  const now = new Date().toISOString();
  const row = await db.statements.get<{ id: string; name: string; bic_code: string }>(
    INSTITUTION_BY_BANK_CODE_SQL,
    [countryCode, bankCode.slice(0, BIC_PARTY_PREFIX_LENGTH), now, now, PRIMARY_OFFICE_BRANCH_CODE],
  );
  return row === undefined
    ? null
    : { id: String(row.id), name: String(row.name), bicCode: String(row.bic_code) };
}

const INSTITUTION_BY_BANK_CODE_SQL = `SELECT i.id, i.name, s.bic_code
  FROM swift_codes s JOIN institutions i ON i.id = s.institution_id
  WHERE s.country_code = ? AND s.bank_code = ? AND s.status = 'active'
    AND s.valid_from <= ? AND (s.valid_until IS NULL OR s.valid_until > ?)
  ORDER BY (s.branch_code IS NULL OR s.branch_code = ?) DESC, s.created_at ASC
  LIMIT 1`;

export async function validateIbanWithInstitution(
  db: Database,
  iban: string,
): Promise<IbanValidationResponse> {
  const result = validateIban(iban, await ibanFormats(db));
  const { details } = result;
  if (!result.valid || details.countryCode === null || details.bankCode === null) return result;
  const institution = await findInstitutionForBankCode(db, details.countryCode, details.bankCode);
  return institution === null ? result : { valid: true, details: { ...details, institution } };
}

/** Admin-added formats first (newest first), then the seeded registry in country order. */
export function listIbanConfigs(db: Queryable): Promise<IbanConfig[]> {
  return db.select().from(ibanConfigs).orderBy(desc(ibanConfigs.createdAt), asc(ibanConfigs.countryCode))
    .all();
}

type FormatFields = Omit<IbanConfig, "id" | "createdAt" | "updatedAt" | "createdBy">;

function invalidFormat(message: string, field?: string): AppError {
  return new AppError("validation", message, field ? { field, fields: { [field]: message } } : {});
}

/** The structure must parse, lengths and offsets must agree with it, and the example must validate. */
function assertUsableFormat(fields: FormatFields): void {
  const structure = parseBbanStructure(fields.structure);
  if (!structure.ok) throw invalidFormat(structure.error.message, "structure");
  const format: IbanCountryFormat = toCountryFormat({
    ...fields,
    id: "",
    createdAt: "",
    updatedAt: "",
    createdBy: null,
  });
  const withoutExample = checkIbanCountryFormat({ ...format, exampleIban: null });
  if (!withoutExample.ok) throw invalidFormat(withoutExample.error.message);
  const withExample = checkIbanCountryFormat(format);
  if (!withExample.ok) throw invalidFormat(withExample.error.message, "exampleIban");
}

/** Inserts one format with its audit row; the caller has checked it. Shared by the API and the seed. */
export async function insertIbanConfig(
  tx: Tx,
  actor: Actor,
  fields: FormatFields,
  action: "create" | "seed",
  at: string = new Date().toISOString(),
): Promise<IbanConfig> {
  const record: IbanConfig = {
    id: crypto.randomUUID(),
    ...fields,
    createdAt: at,
    updatedAt: at,
    createdBy: actor.userId,
  };
  await tx.insert(ibanConfigs).values(record);
  await recordCreation(tx, actor, "iban_config", record.id, record, action);
  return record;
}

export async function createIbanConfig(
  db: Database,
  actor: Actor,
  input: CreateIbanConfigInput,
): Promise<IbanConfig> {
  const identifiersEnd = Math.max(
    input.bankCodeOffset + input.bankCodeLength,
    input.branchCodeOffset === null ? 0 : input.branchCodeOffset + input.branchCodeLength,
  );
  const fields: FormatFields = { ...input, accountNumberOffset: input.accountNumberOffset ?? identifiersEnd };
  assertUsableFormat(fields);
  const record = await db.transaction(async (tx) => {
    const existing = await tx.select({ id: ibanConfigs.id }).from(ibanConfigs)
      .where(eq(ibanConfigs.countryCode, fields.countryCode)).get();
    if (existing !== undefined) {
      throw conflict("countryCode", `An IBAN format for ${fields.countryCode} already exists`);
    }
    return insertIbanConfig(tx, actor, fields, "create");
  });
  invalidateIbanFormats(db);
  return record;
}

export async function updateIbanConfig(
  db: Database,
  actor: Actor,
  countryCode: string,
  patch: UpdateIbanConfigInput,
): Promise<IbanConfig> {
  const record = await db.transaction(async (tx) => {
    const before = await tx.select().from(ibanConfigs).where(eq(ibanConfigs.countryCode, countryCode)).get();
    if (before === undefined) throw notFound("IBAN format");
    const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, createdBy: _createdBy, ...current } =
      before;
    const fields: FormatFields = { ...current, ...patch };
    assertUsableFormat(fields);
    const after: IbanConfig = { ...before, ...fields, updatedAt: new Date().toISOString() };
    await tx.update(ibanConfigs).set({ ...fields, updatedAt: after.updatedAt }).where(
      eq(ibanConfigs.id, before.id),
    );
    await recordAudit(tx, actor, {
      entityType: "iban_config",
      entityId: before.id,
      action: "update",
      changes: { before, after },
    });
    return after;
  });
  invalidateIbanFormats(db);
  return record;
}
