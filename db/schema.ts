/**
 * Drizzle view of the database. The SQL files under db/migrations are the source of truth for
 * constraints (CHECK, triggers, FTS); tests/api/schema_test.ts proves every column here exists there.
 */
import { sql } from "drizzle-orm";
import { blob, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ROLES } from "../src/domain/access.ts";
import { GRANT_SOURCES } from "../src/domain/dual_control.ts";
import { EXPEDITION_PARTNERS, EXPEDITION_STATUSES } from "../src/domain/expedition.ts";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const createdAt = () => text("created_at").notNull().default(now);
const updatedAt = () => text("updated_at").notNull().default(now);

export const SYSTEM_USER_ID = "00000000-0000-0000-0000-000000000000";

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  /** The address's confusable skeleton (UTS #39), unique: db/migrations/1300_users_email_skeleton.sql. */
  emailSkeleton: text("email_skeleton"),
  firstName: text("first_name"),
  lastName: text("last_name"),
  profileImageUrl: text("profile_image_url"),
  role: text("role", { enum: ["admin", "operator"] }).notNull().default("admin"),
  disabledAt: text("disabled_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const userCredentials = sqliteTable("user_credentials", {
  userId: text("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  passwordHash: text("password_hash").notNull(),
  passwordChangedAt: text("password_changed_at").notNull().default(now),
  mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(false),
});

/** Staff roles, several per user (db/migrations/0800_user_roles.sql, src/domain/access.ts). */
export const userRoles = sqliteTable("user_roles", {
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  role: text("role", { enum: ROLES }).notNull(),
}, (table) => [primaryKey({ columns: [table.userId, table.role] })]);

/** How each role held came to be held (db/migrations/1340_role_grants.sql, src/domain/dual_control.ts). */
export const roleGrants = sqliteTable("role_grants", {
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  role: text("role", { enum: ROLES }).notNull(),
  source: text("source", { enum: GRANT_SOURCES }).notNull(),
  grantedBy: text("granted_by"),
  approvedBy: text("approved_by"),
  confirmedBy: text("confirmed_by"),
  grantedAt: text("granted_at").notNull(),
  confirmedAt: text("confirmed_at"),
}, (table) => [primaryKey({ columns: [table.userId, table.role] })]);

export const administrationPolicy = sqliteTable("administration_policy", {
  id: integer("id").primaryKey(),
  dualControlSince: text("dual_control_since"),
});

export const sessions = sqliteTable("sessions", {
  sid: text("sid").primaryKey(),
  sess: text("sess", { mode: "json" }).notNull().$type<SessionData>(),
  expire: text("expire").notNull(),
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
});

export interface SessionData {
  userId: string;
  createdAt: string;
  lastSeenAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** Present while the second factor is still owed: a code to enter, or an authenticator to enrol. */
  secondFactor?: SecondFactorStage;
  /** What the second factor asked at the sign-in that made this session (an enrolment, or a code). */
  secondFactorDone?: SecondFactorStage;
  /** A sign-in through the identity provider: the local password, and a pending change of it, play no part. */
  signedInWith?: "oidc";
}

export type SecondFactorStage = "verify" | "enrol";

export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: text("window_started_at").notNull(),
  lockedUntil: text("locked_until"),
  /** When a waiting ticket last let an attempt through this key's wait (1310). */
  ticketUsedAt: text("ticket_used_at"),
});

export const INSTITUTION_TYPES = [
  "commercial",
  "savings",
  "credit_union",
  "development",
  "investment",
] as const;
export const INSTITUTION_STATUSES = ["pending", "active", "suspended"] as const;
export const SWIFT_MEMBERSHIP_TYPES = ["full", "subgroup", "correspondent"] as const;

export const institutions = sqliteTable("institutions", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  type: text("type", { enum: INSTITUTION_TYPES }).notNull(),
  registrationNumber: text("registration_number").notNull().unique(),
  licenseNumber: text("license_number"),
  address: text("address").notNull(),
  phoneNumber: text("phone_number").notNull(),
  emailAddress: text("email_address").notNull(),
  numberOfBranches: integer("number_of_branches").notNull().default(1),
  swiftParticipant: integer("swift_participant", { mode: "boolean" }).notNull().default(false),
  swiftMembershipType: text("swift_membership_type", { enum: SWIFT_MEMBERSHIP_TYPES }),
  status: text("status", { enum: INSTITUTION_STATUSES }).notNull().default("pending"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  createdBy: text("created_by").references(() => users.id),
  lei: text("lei"),
  successorId: text("successor_id"),
  terminatedAt: text("terminated_at"),
  deletionAnnouncedAt: text("deletion_announced_at"),
});

export const CODE_STATUSES = ["active", "inactive", "suspended"] as const;

export const routingCodes = sqliteTable("routing_codes", {
  id: text("id").primaryKey(),
  institutionId: text("institution_id").notNull().references(() => institutions.id),
  code: text("code").notNull().unique(),
  prefix: text("prefix").notNull(),
  branchCode: text("branch_code"),
  description: text("description"),
  status: text("status", { enum: CODE_STATUSES }).notNull().default("active"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  createdBy: text("created_by").references(() => users.id),
  successorCode: text("successor_code"),
  terminatedAt: text("terminated_at"),
  deletionAnnouncedAt: text("deletion_announced_at"),
});

export const swiftCodes = sqliteTable("swift_codes", {
  id: text("id").primaryKey(),
  institutionId: text("institution_id").notNull().references(() => institutions.id),
  bicCode: text("bic_code").notNull().unique(),
  bankCode: text("bank_code").notNull(),
  countryCode: text("country_code").notNull(),
  locationCode: text("location_code").notNull(),
  branchCode: text("branch_code"),
  membershipType: text("membership_type"),
  status: text("status", { enum: CODE_STATUSES }).notNull().default("active"),
  validFrom: text("valid_from").notNull().default(now),
  validUntil: text("valid_until"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  createdBy: text("created_by").references(() => users.id),
  successorBic: text("successor_bic"),
  terminatedAt: text("terminated_at"),
  deletionAnnouncedAt: text("deletion_announced_at"),
});

export const ibanConfigs = sqliteTable("iban_configs", {
  id: text("id").primaryKey(),
  countryCode: text("country_code").notNull().unique(),
  countryName: text("country_name"),
  ibanLength: integer("iban_length").notNull(),
  bankCodeLength: integer("bank_code_length").notNull(),
  accountNumberLength: integer("account_number_length").notNull(),
  structure: text("structure").notNull(),
  bankCodeOffset: integer("bank_code_offset").notNull().default(0),
  branchCodeOffset: integer("branch_code_offset"),
  branchCodeLength: integer("branch_code_length").notNull().default(0),
  accountNumberOffset: integer("account_number_offset").notNull().default(0),
  sepa: integer("sepa", { mode: "boolean" }).notNull().default(false),
  registryRelease: text("registry_release"),
  checkDigitAlgorithm: text("check_digit_algorithm").notNull().default("mod97"),
  exampleIban: text("example_iban"),
  status: text("status", { enum: ["active", "inactive"] }).notNull().default("active"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  createdBy: text("created_by").references(() => users.id),
});

export const apiLogs = sqliteTable("api_logs", {
  id: text("id").primaryKey(),
  endpoint: text("endpoint").notNull(),
  method: text("method").notNull(),
  clientIp: text("client_ip"),
  userAgent: text("user_agent"),
  responseStatus: integer("response_status").notNull(),
  responseTime: integer("response_time"),
  requestPayload: text("request_payload", { mode: "json" }),
  responsePayload: text("response_payload", { mode: "json" }),
  apiKeyId: text("api_key_id"),
  userId: text("user_id"),
  createdAt: createdAt(),
});

export const REGISTRY_INSTITUTION_TYPES = [
  "central_bank",
  "commercial_bank",
  "credit_union",
  "community_association",
] as const;
export const ACCOUNT_NUMBER_FORMATS = [
  "10-digit",
  "12-digit-checksum",
  "14-digit-extended",
  "iban-compliant",
] as const;
export const CONNECTION_PROTOCOLS = ["iso20022", "swift_mt", "ach", "rtgs", "fedwire"] as const;

export const nationalRoutingRegistry = sqliteTable("national_routing_registry", {
  id: text("id").primaryKey(),
  centralBankCode: text("central_bank_code").notNull().unique(),
  institutionType: text("institution_type", { enum: REGISTRY_INSTITUTION_TYPES }).notNull(),
  registryNumber: text("registry_number").notNull().unique(),
  institutionName: text("institution_name").notNull(),
  nationalBankCode: text("national_bank_code").notNull().unique(),
  accountNumberFormat: text("account_number_format", { enum: ACCOUNT_NUMBER_FORMATS }).notNull(),
  ibanPrefix: text("iban_prefix"),
  swiftBicCode: text("swift_bic_code"),
  participantStatus: text("participant_status").notNull().default("active"),
  connectionProtocol: text("connection_protocol", { enum: CONNECTION_PROTOCOLS }),
  settlementAccount: text("settlement_account"),
  lastRegistryUpdate: text("last_registry_update").notNull().default(now),
  registeredBy: text("registered_by").references(() => users.id),
  registrationDate: text("registration_date").notNull().default(now),
  connectionDetails: text("connection_details", { mode: "json" }),
});

export const CONNECTION_TYPES = ["bilateral", "correspondent", "clearing_member"] as const;
export const CONNECTION_STATUSES = ["active", "pending", "suspended", "testing"] as const;
export const MESSAGE_STANDARDS = ["iso20022", "swift_mt103", "fedwire", "ach"] as const;
export const CURRENCIES = ["USD", "EUR", "GBP", "JPY"] as const;
export const AUTHENTICATION_METHODS = ["api_key", "mutual_tls", "oauth2"] as const;

export const centralBankConnections = sqliteTable("central_bank_connections", {
  id: text("id").primaryKey(),
  partnerCentralBank: text("partner_central_bank").notNull(),
  connectionType: text("connection_type", { enum: CONNECTION_TYPES }).notNull(),
  partnerBankCode: text("partner_bank_code"),
  partnerSwiftCode: text("partner_swift_code"),
  connectionStatus: text("connection_status", { enum: CONNECTION_STATUSES }).notNull().default(
    "pending",
  ),
  messageStandard: text("message_standard", { enum: MESSAGE_STANDARDS }).notNull(),
  settlementCurrency: text("settlement_currency", { enum: CURRENCIES }).notNull().default("USD"),
  dailySettlementLimitMinor: integer("daily_settlement_limit_minor"),
  apiEndpoint: text("api_endpoint"),
  authenticationMethod: text("authentication_method", { enum: AUTHENTICATION_METHODS }),
  credentialsConfigEncrypted: text("credentials_config_encrypted"),
  establishedDate: text("established_date").notNull().default(now),
  lastConnectedAt: text("last_connected_at"),
  createdBy: text("created_by").references(() => users.id),
});

export const ACCOUNT_TYPES = ["ledger", "liquid", "settlement", "reserve"] as const;
export const ACCOUNT_STATUSES = ["active", "inactive", "frozen", "closed"] as const;

export const ledgerAccounts = sqliteTable("ledger_accounts", {
  id: text("id").primaryKey(),
  accountNumber: text("account_number").notNull().unique(),
  accountType: text("account_type", { enum: ACCOUNT_TYPES }).notNull(),
  institutionId: text("institution_id").references(() => institutions.id),
  nationalRoutingId: text("national_routing_id").references(() => nationalRoutingRegistry.id),
  accountName: text("account_name").notNull(),
  currency: text("currency", { enum: CURRENCIES }).notNull().default("USD"),
  currentBalanceMinor: integer("current_balance_minor").notNull().default(0),
  availableBalanceMinor: integer("available_balance_minor").notNull().default(0),
  openingBalanceMinor: integer("opening_balance_minor").notNull().default(0),
  accountStatus: text("account_status", { enum: ACCOUNT_STATUSES }).notNull().default("active"),
  lastSweepDate: text("last_sweep_date"),
  sweepThresholdMinor: integer("sweep_threshold_minor"),
  targetLiquidAccount: text("target_liquid_account"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  createdBy: text("created_by").references(() => users.id),
  /** Set by administrators (1330); null: no limit of the account's own. */
  dailyOutflowLimitMinor: integer("daily_outflow_limit_minor"),
});

export const SWEEP_TYPES = ["manual", "scheduled", "threshold"] as const;
export const SWEEP_STATUSES = ["completed", "pending", "failed"] as const;

export const balanceSweeps = sqliteTable("balance_sweeps", {
  id: text("id").primaryKey(),
  sweepType: text("sweep_type", { enum: SWEEP_TYPES }).notNull(),
  sourceAccountId: text("source_account_id").notNull().references(() => ledgerAccounts.id),
  targetAccountId: text("target_account_id").notNull().references(() => ledgerAccounts.id),
  sweepAmountMinor: integer("sweep_amount_minor").notNull(),
  sourceBalanceBeforeMinor: integer("source_balance_before_minor").notNull(),
  sourceBalanceAfterMinor: integer("source_balance_after_minor").notNull(),
  targetBalanceBeforeMinor: integer("target_balance_before_minor").notNull(),
  targetBalanceAfterMinor: integer("target_balance_after_minor").notNull(),
  sweepStatus: text("sweep_status", { enum: SWEEP_STATUSES }).notNull().default("pending"),
  sweepReason: text("sweep_reason"),
  transactionReference: text("transaction_reference").unique(),
  settlementDate: text("settlement_date"),
  executedAt: text("executed_at").notNull().default(now),
  executedBy: text("executed_by").references(() => users.id),
  approvedBy: text("approved_by").references(() => users.id),
  metadata: text("metadata", { mode: "json" }),
});

export const CARD_BRANDS = ["visa", "soln_bank"] as const;
export const CARD_TYPES = ["debit", "prepaid", "credit"] as const;
export const CARD_STATUSES = ["active", "inactive", "blocked", "expired"] as const;
export const DISTRIBUTION_METHODS = ["digital", "physical", "pickup"] as const;

export const cards = sqliteTable("cards", {
  id: text("id").primaryKey(),
  cardNumberEncrypted: text("card_number_encrypted").notNull(),
  cardNumberFingerprint: text("card_number_fingerprint").notNull().unique(),
  cardNumberMasked: text("card_number_masked").notNull(),
  cardholderName: text("cardholder_name").notNull(),
  cardholderEmail: text("cardholder_email"),
  cardStatus: text("card_status", { enum: CARD_STATUSES }).notNull().default("active"),
  cardBrand: text("card_brand", { enum: CARD_BRANDS }).notNull(),
  cardType: text("card_type", { enum: CARD_TYPES }).notNull(),
  distributionMethod: text("distribution_method", { enum: DISTRIBUTION_METHODS }),
  spendingLimit: integer("spending_limit").notNull().default(0),
  dailyLimit: integer("daily_limit").notNull().default(0),
  currentBalanceMinor: integer("current_balance_minor").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  createdBy: text("created_by").references(() => users.id),
});

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  keyPrefix: text("key_prefix").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  createdAt: createdAt(),
  lastUsedAt: text("last_used_at"),
  expiresAt: text("expires_at"),
  revokedAt: text("revoked_at"),
  createdBy: text("created_by").references(() => users.id),
  /** The key's own hourly limit (the System Settings' default at its creation); null for older keys. */
  limitPerHour: integer("limit_per_hour"),
});

export const auditTrail = sqliteTable("audit_trail", {
  id: text("id").primaryKey(),
  seq: integer("seq").notNull().unique(),
  entityType: text("entity_type").notNull(),
  entityId: text("entity_id").notNull(),
  action: text("action").notNull(),
  changes: text("changes", { mode: "json" }),
  performedBy: text("performed_by").notNull().references(() => users.id),
  performedAt: text("performed_at").notNull().default(now),
  ipAddress: text("ip_address"),
  userAgent: text("user_agent"),
  prevHash: text("prev_hash").notNull(),
  hash: text("hash").notNull(),
});

export const LEDGER_ENTRY_TYPES = ["opening", "sweep_out", "sweep_in", "card_funding"] as const;

/** Journal of every balance change on a ledger account (see db/migrations/0002_ledger_entries.sql). */
export const ledgerEntries = sqliteTable("ledger_entries", {
  id: text("id").primaryKey(),
  seq: integer("seq").notNull().unique(),
  accountId: text("account_id").notNull().references(() => ledgerAccounts.id),
  entryType: text("entry_type", { enum: LEDGER_ENTRY_TYPES }).notNull(),
  amountMinor: integer("amount_minor").notNull(),
  balanceBeforeMinor: integer("balance_before_minor").notNull(),
  balanceAfterMinor: integer("balance_after_minor").notNull(),
  referenceType: text("reference_type", { enum: ["account", "sweep", "card"] }).notNull(),
  referenceId: text("reference_id").notNull(),
  createdAt: createdAt(),
  createdBy: text("created_by").notNull().references(() => users.id),
});

/**
 * The record of each Idempotency-Key, per user, with the first answer (src/server/http/idempotency.ts);
 * primary key (user_id, idempotency_key) in db/migrations/1410_idempotency_keys.sql. The answer is
 * null while a claimed request (a provider's call) is under way.
 */
export const idempotencyKeys = sqliteTable("idempotency_keys", {
  userId: text("user_id").notNull().references(() => users.id),
  idempotencyKey: text("idempotency_key").notNull(),
  route: text("route").notNull(),
  requestHash: text("request_hash").notNull(),
  responseStatus: integer("response_status"),
  responseBody: text("response_body"),
  createdAt: text("created_at").notNull(),
  answeredAt: text("answered_at"),
}, (table) => [primaryKey({ columns: [table.userId, table.idempotencyKey] })]);

/** One row per scheduled auto-sweep occurrence that ran; its key decides which process runs it. */
export const sweepScheduleLeases = sqliteTable("sweep_schedule_leases", {
  occurrenceKey: text("occurrence_key").primaryKey(),
  schedule: text("schedule").notNull(),
  instanceId: text("instance_id").notNull(),
  claimedAt: text("claimed_at").notNull(),
  sweepsExecuted: integer("sweeps_executed").notNull().default(0),
});

/**
 * One counter per topic ("auth", "routing_codes", "institutions") that triggers bump on every change
 * to the rows a process caches for that topic (db/migrations/0003_change_epochs.sql and 1250,
 * src/server/db/change_epochs.ts).
 */
export const changeEpochs = sqliteTable("change_epochs", {
  topic: text("topic").primaryKey(),
  epoch: integer("epoch").notNull(),
});

/** One row (id 1) that triggers bump on every change to iban_configs (db/migrations/0200_iban_configs_version.sql). */
export const ibanConfigsVersion = sqliteTable("iban_configs_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});

/** One counter per issuer prefix for national routing central bank codes (see 0300_central_bank_code_sequences.sql). */
export const centralBankCodeSequences = sqliteTable("central_bank_code_sequences", {
  prefix: text("prefix").primaryKey(),
  lastValue: integer("last_value").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Stable integer key per institution: the rowid of its entries in the institution search indexes
 * (db/migrations/0100-0102), handed out by a trigger, counting downwards in registration order.
 */
export const institutionSearchKeys = sqliteTable("institution_search_keys", {
  searchKey: integer("search_key").primaryKey(),
  institutionId: text("institution_id").notNull().unique().references(() => institutions.id, {
    onDelete: "cascade",
  }),
});

export const FUNDING_SOURCES = ["central_bank_treasury", "settlement_source", "operating_account"] as const;
export const CARD_LOAD_REASONS = ["issue", "distribute", "load"] as const;

/** Card-side journal of every load (db/migrations/0500_card_loads.sql). */
export const cardLoads = sqliteTable("card_loads", {
  id: text("id").primaryKey(),
  cardId: text("card_id").notNull().references(() => cards.id),
  amountMinor: integer("amount_minor").notNull(),
  fundingSource: text("funding_source", { enum: FUNDING_SOURCES }).notNull(),
  sourceAccountId: text("source_account_id").notNull().references(() => ledgerAccounts.id),
  ledgerEntryId: text("ledger_entry_id").notNull().unique().references(() => ledgerEntries.id),
  reason: text("reason", { enum: CARD_LOAD_REASONS }).notNull(),
  cardBalanceBeforeMinor: integer("card_balance_before_minor").notNull(),
  cardBalanceAfterMinor: integer("card_balance_after_minor").notNull(),
  createdAt: createdAt(),
  createdBy: text("created_by").notNull().references(() => users.id),
});

export const GENERATED_REPORT_STATUSES = ["completed", "failed"] as const;

/** One row per report generation (db/migrations/0700_generated_reports.sql); the file lives under DATA_DIR/reports. */
export const generatedReports = sqliteTable("generated_reports", {
  id: text("id").primaryKey(),
  reportType: text("report_type").notNull(),
  dateFrom: text("date_from").notNull(),
  dateTo: text("date_to").notNull(),
  format: text("format").notNull(),
  status: text("status", { enum: GENERATED_REPORT_STATUSES }).notNull(),
  fileName: text("file_name").notNull(),
  rowCount: integer("row_count"),
  sizeBytes: integer("size_bytes"),
  sha256: text("sha256"),
  summary: text("summary", { mode: "json" }),
  error: text("error"),
  createdBy: text("created_by").notNull().references(() => users.id),
  createdAt: createdAt(),
  completedAt: text("completed_at"),
});

/**
 * Hourly request counters of the public API per key and endpoint; the primary key
 * (api_key_id, endpoint, window_start) is declared in db/migrations/0600_api_rate_limits.sql.
 */
export const apiRateLimits = sqliteTable("api_rate_limits", {
  apiKeyId: text("api_key_id").notNull().references(() => apiKeys.id, { onDelete: "cascade" }),
  endpoint: text("endpoint").notNull(),
  windowStart: text("window_start").notNull(),
  count: integer("count").notNull(),
});

/** One row (id 1): bumped by triggers whenever the institution search indexes can change (0103). */
export const institutionsSearchVersion = sqliteTable("institutions_search_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});

/** TOTP second factor per local account (0900); secretEncrypted through src/server/secrets.ts. */
export const userTotp = sqliteTable("user_totp", {
  userId: text("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: text("confirmed_at"),
  lastUsedStep: integer("last_used_step").notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes, hashed; primary key (user_id, code_hash) in 0900. */
export const userRecoveryCodes = sqliteTable("user_recovery_codes", {
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  codeHash: text("code_hash").notNull(),
  usedAt: text("used_at"),
});

/** Wrong second-factor codes, per pending sign-in and per hour (1310); rows older than an hour are deleted. */
export const secondFactorFailures = sqliteTable("second_factor_failures", {
  id: integer("id").primaryKey(),
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  /** The pending session's sid. */
  sessionId: text("session_id").notNull(),
  /** The known browser's device id (device_cookie.ts), or null for a browser that never signed in as the user. */
  deviceId: text("device_id"),
  failedAtMs: real("failed_at_ms").notNull(),
});

/** The administrator's sign-in settings: one row, id 1 (0900). */
export const signInSettings = sqliteTable("sign_in_settings", {
  id: integer("id").primaryKey(),
  mfaRequiredForAll: integer("mfa_required_for_all", { mode: "boolean" }).notNull(),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by").references(() => users.id),
});

/** A console user's account at the identity provider; primary key (issuer, subject) in 0901. */
export const userIdentities = sqliteTable("user_identities", {
  issuer: text("issuer").notNull(),
  subject: text("subject").notNull(),
  userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
  lastSignInAt: text("last_sign_in_at").notNull().default(now),
});

/** What each maker moved alone per currency per UTC day (1330); primary key (maker, currency, day). */
export const makerDailyTotals = sqliteTable("maker_daily_totals", {
  makerId: text("maker_id").notNull().references(() => users.id),
  currency: text("currency", { enum: CURRENCIES }).notNull(),
  day: text("day").notNull(),
  movedMinor: integer("moved_minor").notNull(),
});

/** What left each account alone per UTC day (1330); primary key (account, day). */
export const accountDailyOutflows = sqliteTable("account_daily_outflows", {
  accountId: text("account_id").notNull().references(() => ledgerAccounts.id),
  day: text("day").notNull(),
  outflowMinor: integer("outflow_minor").notNull(),
});

/** Partnership expedition requests (db/migrations/1460_expedition_requests.sql). */
export const expeditionRequests = sqliteTable("expedition_requests", {
  id: text("id").primaryKey(),
  partner: text("partner", { enum: EXPEDITION_PARTNERS }).notNull(),
  method: text("method").notNull(),
  justification: text("justification").notNull(),
  status: text("status", { enum: EXPEDITION_STATUSES }).notNull().default("open"),
  requestedBy: text("requested_by").notNull().references(() => users.id),
  requestedAt: text("requested_at").notNull(),
  statusChangedBy: text("status_changed_by").references(() => users.id),
  statusChangedAt: text("status_changed_at"),
  statusNote: text("status_note"),
});

/** Filings of the Reports screen's compliance schedule (db/migrations/1461_compliance_filings.sql). */
export const complianceFilings = sqliteTable("compliance_filings", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  reportType: text("report_type").notNull(),
  opensOn: text("opens_on").notNull(),
  dueDate: text("due_date").notNull(),
  createdBy: text("created_by").notNull().references(() => users.id),
  createdAt: text("created_at").notNull(),
  updatedBy: text("updated_by").references(() => users.id),
  updatedAt: text("updated_at"),
});

export const REGISTRY_ENTITY_TYPES = ["institution", "routing_code", "swift_code", "national_routing_entry"] as const;

/** Every version of a registry record, in force from valid_from (db/migrations/1470_registry_versions.sql). */
export const registryVersions = sqliteTable("registry_versions", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  entityType: text("entity_type", { enum: REGISTRY_ENTITY_TYPES }).notNull(),
  entityId: text("entity_id").notNull(),
  validFrom: text("valid_from").notNull(),
  validTo: text("valid_to"),
  data: text("data", { mode: "json" }).notNull(),
  changes: text("changes", { mode: "json" }).notNull(),
  summary: text("summary").notNull(),
  requestedBy: text("requested_by").references(() => users.id),
  approvedBy: text("approved_by").references(() => users.id),
  approvalRequestId: text("approval_request_id"),
  appliedAt: text("applied_at"),
  createdAt: text("created_at").notNull(),
});

/** Bulk imports of the registry, one per distinct file (db/migrations/1510_registry_imports.sql). */
export const registryImports = sqliteTable("registry_imports", {
  id: text("id").primaryKey(),
  sha256: text("sha256").notNull().unique(),
  fileName: text("file_name"),
  byteSize: integer("byte_size").notNull(),
  rowCount: integer("row_count").notNull(),
  content: text("content").notNull(),
  report: text("report", { mode: "json" }).notNull(),
  approvalRequestId: text("approval_request_id"),
  submittedBy: text("submitted_by").notNull().references(() => users.id),
  submittedAt: text("submitted_at").notNull(),
  appliedAt: text("applied_at"),
  appliedBy: text("applied_by").references(() => users.id),
  /** db/migrations/1540_registry_import_apply.sql: approved (queued), applying, applied or failed. */
  applyState: text("apply_state", { enum: ["approved", "applying", "applied", "failed"] }),
  approvedBy: text("approved_by").references(() => users.id),
  approvedAt: text("approved_at"),
  applyAttempts: integer("apply_attempts").notNull().default(0),
  failure: text("failure", { mode: "json" }),
});
/** Signed directory editions (db/migrations/1500_directory_editions.sql): written once, never changed. */
export const directorySigningKeys = sqliteTable("directory_signing_keys", {
  keyId: text("key_id").primaryKey(),
  publicKeyPem: text("public_key_pem").notNull(),
  publicKeyJwk: text("public_key_jwk", { mode: "json" }).notNull(),
  createdAt: text("created_at").notNull(),
});

export const directoryEditions = sqliteTable("directory_editions", {
  number: integer("number").primaryKey(),
  effectiveDate: text("effective_date").notNull(),
  previousNumber: integer("previous_number"),
  reason: text("reason").notNull(),
  publishedAt: text("published_at").notNull(),
  requestedBy: text("requested_by").references(() => users.id),
  approvedBy: text("approved_by").references(() => users.id),
  keyId: text("key_id").notNull(),
  counts: text("counts", { mode: "json" }).notNull(),
  manifest: text("manifest").notNull(),
  signature: blob("signature", { mode: "buffer" }).notNull(),
  jws: text("jws").notNull(),
});

export const directoryEditionFiles = sqliteTable("directory_edition_files", {
  editionNumber: integer("edition_number").notNull(),
  name: text("name").notNull(),
  contentType: text("content_type").notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256").notNull(),
}, (table) => [primaryKey({ columns: [table.editionNumber, table.name] })]);

/** Approved directory editions waiting for, or past, their background build (db/migrations/1530_directory_publication_queue.sql). */
export const directoryEditionQueue = sqliteTable("directory_edition_queue", {
  approvalRequestId: text("approval_request_id").primaryKey(),
  effectiveDate: text("effective_date").notNull(),
  reason: text("reason").notNull(),
  requestedBy: text("requested_by").references(() => users.id),
  approvedBy: text("approved_by").references(() => users.id),
  approvedAt: text("approved_at").notNull(),
  state: text("state", { enum: ["publishing", "published", "failed"] }).notNull().default("publishing"),
  number: integer("number").notNull(),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  updatedAt: text("updated_at").notNull(),
});
