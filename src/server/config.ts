/** Every setting the server reads from the environment, parsed once at start. */
import { type OidcConfig, parseOidcConfig } from "./auth/oidc_config.ts";
import { parseTrustProxy, type ProxyTrust } from "./http/client_address.ts";
import { parseAllowedHosts } from "./http/outbound.ts";
import { issuerPrefixesFromEnv } from "./features/cards/settings.ts";
import { ALLOWED_HOSTS_ENV } from "./features/central_bank_connections/settings.ts";
import { partnerConfigPath } from "./features/central_bank_connections/partner_config.ts";
import {
  type PlaidSettings,
  plaidSettings,
  type VisaSettings,
  visaSettings,
} from "./features/fintech/provider_env.ts";
import { configuredIssuerPrefix } from "./features/national_routing/settings.ts";
import { SWEEP_SCHEDULE_ENV } from "./features/sweeps/settings.ts";
import { WEBHOOK_ALLOWED_HOSTS_ENV } from "./features/webhooks/settings.ts";
import type { CardBrand } from "../domain/card.ts";

export const DEFAULT_PORT = 5000;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_DATA_DIR = "./data";
export const DEFAULT_SESSION_IDLE_MINUTES = 30;
export const DEFAULT_SESSION_ABSOLUTE_HOURS = 12;
export const DATABASE_FILE_NAME = "console.db";
/** The embedded replica's file under DATA_DIR, for the headquarters and regional roles. */
export const REPLICA_FILE_NAME = "replica.db";
export const DEFAULT_SYNC_INTERVAL_MS = 1_000;
/** Syncing more often than this only loads the primary; less often makes figures stale. */
const MIN_SYNC_INTERVAL_MS = 100;
const MAX_SYNC_INTERVAL_MS = 300_000;
export const HEADQUARTERS_REGION = "headquarters";
export const DEFAULT_API_LOG_RETENTION_DAYS = 90;

/**
 * What a console process is in the topology (docs/deployment.md):
 * - standalone: one process on the embedded file under DATA_DIR (the default);
 * - headquarters: next to the primary (sqld); applies the schema and seeds, runs the scheduled
 *   sweep, and executes every mutation, its own and those forwarded by regional nodes;
 * - regional: reads an embedded replica of the primary and forwards every mutation to headquarters.
 */
export const NODE_ROLES = ["standalone", "headquarters", "regional"] as const;
export type NodeRole = typeof NODE_ROLES[number];

export interface ReplicationConfig {
  role: "headquarters" | "regional";
  region: string;
  /** The primary's URL (sqld's HTTP API): the replica syncs from it and transactions run on it. */
  syncUrl: string;
  /** A JWT the primary accepts (sqld --auth-jwt-key-file); never logged. */
  authToken: string;
  syncIntervalMs: number;
  /** Regional nodes: the headquarters console that executes their mutations. */
  headquartersUrl: string | null;
  /**
   * Headquarters: the Ed25519 public key (PEM file) the primary verifies tokens with; a forwarded
   * request is trusted to name its client's address only when it carries a token it verifies.
   */
  nodesPublicKeyFile: string | null;
}

export interface PasswordHashCost {
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

/** OWASP's argon2id baseline (19 MiB, 2 passes). */
export const DEFAULT_PASSWORD_HASH_COST: PasswordHashCost = {
  memoryKiB: 19_456,
  iterations: 2,
  parallelism: 1,
};

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** True when DATABASE_URL was not set: the embedded default database under DATA_DIR. */
  embeddedDatabase: boolean;
  role: NodeRole;
  /** Set for the headquarters and regional roles; null when standalone. */
  replication: ReplicationConfig | null;
  adminEmail: string | null;
  adminPassword: string | null;
  /**
   * Demo data is seeded at first start: into the embedded default database unless SEED_DEMO=0, into
   * a headquarters' primary only with SEED_DEMO=1, never into a configured DATABASE_URL.
   */
  seedDemo: boolean;
  sessionIdleMinutes: number;
  /** A session ends this long after sign-in however busy it is (SESSION_ABSOLUTE_HOURS). */
  sessionAbsoluteHours: number;
  /** REQUIRE_MFA=0 turns the second-factor requirement off (development, password-only tools). */
  requireMfa: boolean;
  /** Single sign-on through the bank's identity provider (OIDC_*), or null. */
  oidc: OidcConfig | null;
  /** Which proxies in front of the server may name the client address (TRUST_PROXY); null trusts none. */
  trustProxy: ProxyTrust | null;
  /** Behind https the session cookie is marked Secure. */
  secureCookies: boolean;
  passwordHashCost: PasswordHashCost;
  distDir: string;
  /** Base64 of a 32-byte key for secrets at rest; when absent a key file under dataDir is used. */
  secretsKey: string | null;
  /** Base64 of the 32-byte audit chain key (AUDIT_CHAIN_KEY); when absent DATA_DIR/audit-chain.key. */
  auditChainKey: string | null;
  /** Where signed audit checkpoints are appended: outside the data folder (AUDIT_CHECKPOINT_FILE). */
  auditCheckpointFile: string;
  /** How long request-log entries are kept (API_LOG_RETENTION_DAYS) unless System Settings say otherwise. */
  apiLogRetentionDays: number;
  /** Where the console's own backups go (BACKUP_DIR); DATA_DIR/backups by default. */
  backupDir: string;
  features: FeatureSettings;
}

/** Settings of single features, each parsed by the feature's own settings function. */
export interface FeatureSettings {
  /** Card number issuer prefixes per brand (CARD_PREFIX_VISA, CARD_PREFIX_SOLN_BANK). */
  cardIssuerPrefixes: Readonly<Record<CardBrand, string>>;
  /** The national routing issuer prefix for requests without a code (CENTRAL_BANK_CODE_PREFIX). */
  nationalRoutingIssuerPrefix: string;
  /** Private hosts a connection test may reach (CONNECTION_TEST_ALLOWED_HOSTS). */
  connectionTestAllowedHosts: ReadonlySet<string>;
  /** Private hosts, and hosts reached over plain http, that webhooks may reach (WEBHOOK_ALLOWED_HOSTS). */
  webhookAllowedHosts: ReadonlySet<string>;
  /** The partner central bank's connection file (PARTNER_CONNECTION_FILE). */
  partnerConnectionFile: string;
  /** The fintech providers' live credentials; null runs that provider's sandbox. */
  plaid: PlaidSettings | null;
  visa: VisaSettings | null;
  /** The automatic sweep's cron expression (SWEEP_SCHEDULE); empty: no schedule. */
  sweepSchedule: string;
}

/** Beside the data folder, not in it: `./data` keeps its checkpoints in `./data-audit-checkpoints.jsonl`. */
export function defaultCheckpointFile(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}${CHECKPOINT_FILE_SUFFIX}`;
}

export const CHECKPOINT_FILE_SUFFIX = "-audit-checkpoints.jsonl";

function integerSetting(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

function syncIntervalSetting(env: Record<string, string | undefined>): number {
  const value = integerSetting(env, "DATABASE_SYNC_INTERVAL_MS", DEFAULT_SYNC_INTERVAL_MS);
  if (value < MIN_SYNC_INTERVAL_MS || value > MAX_SYNC_INTERVAL_MS) {
    throw new Error(
      `DATABASE_SYNC_INTERVAL_MS must be between ${MIN_SYNC_INTERVAL_MS} and ${MAX_SYNC_INTERVAL_MS}, got ${value}`,
    );
  }
  return value;
}

function httpUrlSetting(env: Record<string, string | undefined>, name: string): string {
  const raw = env[name];
  if (!raw) throw new Error(`${name} is required`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

const REPLICATION_SETTINGS = [
  "DATABASE_SYNC_URL",
  "DATABASE_AUTH_TOKEN",
  "DATABASE_SYNC_INTERVAL_MS",
  "REGION",
  "HQ_CONSOLE_URL",
  "NODES_PUBLIC_KEY_FILE",
];

/** NODE_ROLE and its settings; throws on a combination that cannot work, naming what is wrong. */
function replicationSetting(env: Record<string, string | undefined>): ReplicationConfig | null {
  const role = env.NODE_ROLE || "standalone";
  if (!(NODE_ROLES as readonly string[]).includes(role)) {
    throw new Error(`NODE_ROLE must be one of ${NODE_ROLES.join(", ")}, got "${role}"`);
  }
  if (role === "standalone") {
    const stray = REPLICATION_SETTINGS.filter((name) => env[name]);
    if (stray.length > 0) {
      throw new Error(
        `${stray.join(", ")} apply to NODE_ROLE=headquarters or regional only (NODE_ROLE is standalone)`,
      );
    }
    return null;
  }
  if (env.DATABASE_URL && !env.DATABASE_URL.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a file: URL (the local replica) with NODE_ROLE=${role}`);
  }
  const syncUrl = httpUrlSetting(env, "DATABASE_SYNC_URL");
  const authToken = env.DATABASE_AUTH_TOKEN;
  if (!authToken) {
    throw new Error(`DATABASE_AUTH_TOKEN is required with NODE_ROLE=${role}: the primary runs with JWT auth`);
  }
  if (role === "regional") {
    if (!env.REGION) throw new Error("REGION is required with NODE_ROLE=regional");
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(env.REGION)) {
      throw new Error(
        `REGION must be lower-case letters, digits and hyphens (at most 32), got "${env.REGION}"`,
      );
    }
    if (env.NODES_PUBLIC_KEY_FILE) {
      throw new Error("NODES_PUBLIC_KEY_FILE applies to NODE_ROLE=headquarters only");
    }
    return {
      role,
      region: env.REGION,
      syncUrl,
      authToken,
      syncIntervalMs: syncIntervalSetting(env),
      headquartersUrl: httpUrlSetting(env, "HQ_CONSOLE_URL"),
      nodesPublicKeyFile: null,
    };
  }
  if (env.HQ_CONSOLE_URL) throw new Error("HQ_CONSOLE_URL applies to NODE_ROLE=regional only");
  if (env.REGION && env.REGION !== HEADQUARTERS_REGION) {
    throw new Error(`REGION is "${HEADQUARTERS_REGION}" for NODE_ROLE=headquarters, got "${env.REGION}"`);
  }
  return {
    role: "headquarters",
    region: HEADQUARTERS_REGION,
    syncUrl,
    authToken,
    syncIntervalMs: syncIntervalSetting(env),
    headquartersUrl: null,
    nodesPublicKeyFile: env.NODES_PUBLIC_KEY_FILE || null,
  };
}

/** API_LOG_RETENTION_DAYS: a positive whole number of days, 90 when unset. */
export function retentionDaysFrom(env: Readonly<Record<string, string | undefined>>): number {
  return integerSetting(env, "API_LOG_RETENTION_DAYS", DEFAULT_API_LOG_RETENTION_DAYS);
}

function featureSettings(env: Readonly<Record<string, string | undefined>>): FeatureSettings {
  return {
    cardIssuerPrefixes: issuerPrefixesFromEnv(env),
    nationalRoutingIssuerPrefix: configuredIssuerPrefix(env),
    connectionTestAllowedHosts: parseAllowedHosts(env[ALLOWED_HOSTS_ENV]),
    webhookAllowedHosts: parseAllowedHosts(env[WEBHOOK_ALLOWED_HOSTS_ENV]),
    partnerConnectionFile: partnerConfigPath(env),
    plaid: plaidSettings(env),
    visa: visaSettings(env),
    sweepSchedule: env[SWEEP_SCHEDULE_ENV]?.trim() ?? "",
  };
}

function seedDemoSetting(
  env: Readonly<Record<string, string | undefined>>,
  role: NodeRole,
  embedded: boolean,
) {
  if (role === "headquarters") return env.SEED_DEMO === "1";
  return embedded && env.SEED_DEMO !== "0" && env.SEED_DEMO !== "false";
}

export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const dataDir = env.DATA_DIR || DEFAULT_DATA_DIR;
  const replication = replicationSetting(env);
  const defaultFile = replication ? REPLICA_FILE_NAME : DATABASE_FILE_NAME;
  const databaseUrl = env.DATABASE_URL || `file:${dataDir.replace(/\/$/, "")}/${defaultFile}`;
  const port = integerSetting(env, "PORT", DEFAULT_PORT);
  const embeddedDatabase = !env.DATABASE_URL && replication === null;
  const role = replication?.role ?? "standalone";
  if (port > 65_535) throw new Error(`PORT must be at most 65535, got ${port}`);
  return {
    port,
    host: env.HOST || DEFAULT_HOST,
    dataDir,
    databaseUrl,
    embeddedDatabase,
    role,
    replication,
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    seedDemo: seedDemoSetting(env, role, embeddedDatabase),
    sessionIdleMinutes: integerSetting(env, "SESSION_IDLE_MINUTES", DEFAULT_SESSION_IDLE_MINUTES),
    sessionAbsoluteHours: integerSetting(env, "SESSION_ABSOLUTE_HOURS", DEFAULT_SESSION_ABSOLUTE_HOURS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    oidc: parseOidcConfig(env),
    requireMfa: env.REQUIRE_MFA !== "0" && env.REQUIRE_MFA !== "false",
    secureCookies: env.COOKIE_SECURE === "1" || env.COOKIE_SECURE === "true",
    passwordHashCost: DEFAULT_PASSWORD_HASH_COST,
    distDir: env.DIST_DIR || new URL("../../dist", import.meta.url).pathname,
    secretsKey: env.SECRETS_KEY || null,
    auditChainKey: env.AUDIT_CHAIN_KEY || null,
    auditCheckpointFile: env.AUDIT_CHECKPOINT_FILE || defaultCheckpointFile(dataDir),
    apiLogRetentionDays: retentionDaysFrom(env),
    backupDir: env.BACKUP_DIR || `${dataDir.replace(/\/+$/, "")}/backups`,
    features: featureSettings(env),
  };
}
