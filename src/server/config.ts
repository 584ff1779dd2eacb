/** Every setting the server reads from the environment, parsed once at start. */

export const DEFAULT_PORT = 5000;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_DATA_DIR = "./data";
export const DEFAULT_SESSION_IDLE_MINUTES = 30;
export const DATABASE_FILE_NAME = "console.db";

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
  adminEmail: string | null;
  adminPassword: string | null;
  seedDemo: boolean;
  sessionIdleMinutes: number;
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
  env: Readonly<Record<string, string>>;
}

/** Beside the data folder, not in it: `./data` keeps its checkpoints in `./data-audit-checkpoints.jsonl`. */
export function defaultCheckpointFile(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}${CHECKPOINT_FILE_SUFFIX}`;
}

export const CHECKPOINT_FILE_SUFFIX = "-audit-checkpoints.jsonl";

function integerSetting(env: Record<string, string | undefined>, name: string, fallback: number) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const dataDir = env.DATA_DIR || DEFAULT_DATA_DIR;
  const databaseUrl = env.DATABASE_URL || `file:${dataDir.replace(/\/$/, "")}/${DATABASE_FILE_NAME}`;
  const port = integerSetting(env, "PORT", DEFAULT_PORT);
  if (port > 65_535) throw new Error(`PORT must be at most 65535, got ${port}`);
  return {
    port,
    host: env.HOST || DEFAULT_HOST,
    dataDir,
    databaseUrl,
    embeddedDatabase: !env.DATABASE_URL,
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    seedDemo: env.SEED_DEMO !== "0" && env.SEED_DEMO !== "false",
    sessionIdleMinutes: integerSetting(env, "SESSION_IDLE_MINUTES", DEFAULT_SESSION_IDLE_MINUTES),
    secureCookies: env.COOKIE_SECURE === "1" || env.COOKIE_SECURE === "true",
    passwordHashCost: DEFAULT_PASSWORD_HASH_COST,
    distDir: env.DIST_DIR || new URL("../../dist", import.meta.url).pathname,
    secretsKey: env.SECRETS_KEY || null,
    auditChainKey: env.AUDIT_CHAIN_KEY || null,
    auditCheckpointFile: env.AUDIT_CHECKPOINT_FILE || defaultCheckpointFile(dataDir),
    env: Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  };
}
