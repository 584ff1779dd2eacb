/**
 * Provider settings from the environment, checked at start. A provider is live when all of its
 * credentials are set and sandboxed when none are; a partial set stops the server rather than
 * silently falling back to the sandbox. scripts/start.ts reads this module too, to open the
 * network and file permissions the live providers need, so it imports no adapters.
 */

export const PLAID_CREDENTIAL_ENV = ["PLAID_BASE_URL", "PLAID_CLIENT_ID", "PLAID_SECRET"] as const;
export const VISA_CREDENTIAL_ENV = ["VISA_BASE_URL", "VISA_USER_ID", "VISA_PASSWORD"] as const;
export const DEFAULT_PLAID_TIMEOUT_MS = 10_000;
export const DEFAULT_VISA_TIMEOUT_MS = 20_000;
export const MAX_PROVIDER_TIMEOUT_MS = 60_000;
/** Visa's published sandbox acquiring BIN; production uses the BIN Visa assigns. */
export const DEFAULT_VISA_ACQUIRING_BIN = "408999";
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

type Env = Readonly<Record<string, string | undefined>>;

export interface PlaidSettings {
  baseUrl: string;
  clientId: string;
  secret: string;
  timeoutMs: number;
}

export interface VisaSettings {
  baseUrl: string;
  userId: string;
  password: string;
  acquiringBin: string;
  timeoutMs: number;
  certFile: string | null;
  keyFile: string | null;
  /** Extra CA certificate (PEM) to trust, for a gateway behind a private CA. */
  caFile: string | null;
}

const value = (env: Env, name: string) => env[name]?.trim() || null;

function credentials<Names extends readonly string[]>(env: Env, provider: string, names: Names) {
  const present = names.filter((name) => value(env, name) !== null);
  if (present.length === 0) return null;
  if (present.length < names.length) {
    const missing = names.filter((name) => !present.includes(name));
    throw new Error(`${provider} is partly configured: also set ${missing.join(", ")} (or unset all of ${names.join(", ")})`);
  }
  return Object.fromEntries(names.map((name) => [name, value(env, name)!])) as Record<Names[number], string>;
}

function baseUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute URL`);
  }
  // Credentials and card numbers never travel in clear, except to a test double on this machine.
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    throw new Error(`${name} must use https (http is accepted for localhost only)`);
  }
  return url;
}

function timeout(env: Env, name: string, fallback: number): number {
  const raw = value(env, name);
  if (raw === null) return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0 || ms > MAX_PROVIDER_TIMEOUT_MS) {
    throw new Error(`${name} must be a whole number of milliseconds from 1 to ${MAX_PROVIDER_TIMEOUT_MS}`);
  }
  return ms;
}

export function plaidSettings(env: Env): PlaidSettings | null {
  const set = credentials(env, "Plaid", PLAID_CREDENTIAL_ENV);
  if (!set) return null;
  return {
    baseUrl: baseUrl("PLAID_BASE_URL", set.PLAID_BASE_URL).href,
    clientId: set.PLAID_CLIENT_ID,
    secret: set.PLAID_SECRET,
    timeoutMs: timeout(env, "PLAID_TIMEOUT_MS", DEFAULT_PLAID_TIMEOUT_MS),
  };
}

export function visaSettings(env: Env): VisaSettings | null {
  const set = credentials(env, "Visa", VISA_CREDENTIAL_ENV);
  if (!set) return null;
  const url = baseUrl("VISA_BASE_URL", set.VISA_BASE_URL);
  const certFile = value(env, "VISA_CERT_FILE");
  const keyFile = value(env, "VISA_KEY_FILE");
  if ((certFile === null) !== (keyFile === null)) throw new Error("Set VISA_CERT_FILE and VISA_KEY_FILE together");
  // Visa Direct authenticates the client certificate on every call; only a local double may skip it.
  if (certFile === null && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error("Visa needs mutual TLS: set VISA_CERT_FILE and VISA_KEY_FILE");
  }
  const acquiringBin = value(env, "VISA_ACQUIRING_BIN") ?? DEFAULT_VISA_ACQUIRING_BIN;
  if (!/^\d{6,11}$/.test(acquiringBin)) throw new Error("VISA_ACQUIRING_BIN must be 6 to 11 digits");
  return {
    baseUrl: url.href,
    userId: set.VISA_USER_ID,
    password: set.VISA_PASSWORD,
    acquiringBin,
    timeoutMs: timeout(env, "VISA_TIMEOUT_MS", DEFAULT_VISA_TIMEOUT_MS),
    certFile,
    keyFile,
    caFile: value(env, "VISA_CA_FILE"),
  };
}

function hostAndPort(href: string): string {
  const url = new URL(href);
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/** host:port of each live provider, for the server's --allow-net. */
export function providerNetHosts(env: Env): string[] {
  return [plaidSettings(env)?.baseUrl, visaSettings(env)?.baseUrl]
    .filter((href): href is string => href !== undefined)
    .map(hostAndPort);
}

/** Certificate and key files the live card network needs, for the server's --allow-read. */
export function providerReadFiles(env: Env): string[] {
  const visa = visaSettings(env);
  return visa ? [visa.certFile, visa.keyFile, visa.caFile].filter((file): file is string => file !== null) : [];
}
