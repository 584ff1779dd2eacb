/**
 * The public lookup API (spec 2.14 and 7): the documented endpoints with their hourly limits, the
 * shape of an API key, and the fixed hourly windows the limits are counted in. Shared by the server
 * (authentication, rate limiting, OpenAPI) and the API Management screen.
 *
 * @module
 */

export type DocumentedMethod = "GET" | "POST";

export interface DocumentedEndpoint {
  method: DocumentedMethod;
  /** OpenAPI path template, e.g. "/api/routing-codes/{code}". */
  path: string;
  limitPerHour: number;
  summary: string;
  /** A file download's media type: served as is (no envelope), with a strong ETag. Absent: JSON in the envelope. */
  file?: string;
}

/** Spec 7, in the order the API Management screen lists them. */
export const DOCUMENTED_ENDPOINTS: readonly DocumentedEndpoint[] = [
  {
    method: "GET",
    path: "/api/institutions",
    limitPerHour: 100,
    summary: "List or search financial institutions",
  },
  {
    method: "GET",
    path: "/api/institutions/{id}",
    limitPerHour: 200,
    summary: "Get one financial institution",
  },
  {
    method: "GET",
    path: "/api/routing-codes/{code}",
    limitPerHour: 500,
    summary: "Look up a national routing code",
  },
  { method: "GET", path: "/api/swift-codes/{bic}", limitPerHour: 500, summary: "Look up a SWIFT/BIC code" },
  { method: "POST", path: "/api/iban/validate", limitPerHour: 1000, summary: "Validate an IBAN (ISO 13616)" },
  {
    method: "GET",
    path: "/api/search",
    limitPerHour: 200,
    summary: "Search routing codes, BICs or institutions",
  },
  {
    method: "GET",
    path: "/api/directory/editions",
    limitPerHour: 100,
    summary: "List the directory editions",
  },
  directoryFile("manifest.json", 200, "Download an edition's manifest", "application/json"),
  directoryFile(
    "manifest.json.sig",
    200,
    "Download the manifest's Ed25519 signature",
    "application/octet-stream",
  ),
  directoryFile("manifest.json.jws", 200, "Download the manifest's detached JWS", "application/jose"),
  directoryFile("full.csv", 24, "Download an edition's full file (CSV)", "text/csv; charset=utf-8"),
  directoryFile("delta.csv", 100, "Download an edition's delta file (CSV)", "text/csv; charset=utf-8"),
  directoryFile("full.txt", 24, "Download an edition's full file (fixed width)", "text/plain; charset=utf-8"),
  directoryFile(
    "delta.txt",
    100,
    "Download an edition's delta file (fixed width)",
    "text/plain; charset=utf-8",
  ),
  {
    method: "GET",
    path: "/api/directory/public-key.pem",
    limitPerHour: 100,
    summary: "Download the directory key (PEM)",
    file: "application/x-pem-file",
  },
  {
    method: "GET",
    path: "/api/directory/public-key.jwk",
    limitPerHour: 100,
    summary: "Download the directory key (JWK)",
    file: "application/jwk+json",
  },
];

/** One file of every directory edition; a full file is large, so its hourly limit is low. */
function directoryFile(
  name: string,
  limitPerHour: number,
  summary: string,
  file: string,
): DocumentedEndpoint {
  return { method: "GET", path: `/api/directory/editions/{n}/${name}`, limitPerHour, summary, file };
}

/** "GET /api/routing-codes/{code}": the endpoint's identity in counters, logs and the OpenAPI document. */
export function endpointId(endpoint: Pick<DocumentedEndpoint, "method" | "path">): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/**
 * A path pattern with its parameter names erased, so a Hono route ("/api/institutions/:id") and an
 * OpenAPI template ("/api/institutions/{id}") compare equal whatever each side calls the parameter.
 */
export function pathShape(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+(\{[^}]*\})?/g, "{}").replace(/\{[^}]*\}/g, "{}");
}

const ENDPOINTS_BY_SHAPE = new Map(
  DOCUMENTED_ENDPOINTS.map((endpoint) => [`${endpoint.method} ${pathShape(endpoint.path)}`, endpoint]),
);

/** The documented endpoint a route (method and Hono or OpenAPI path pattern) serves, if any. */
export function findDocumentedEndpoint(method: string, routePath: string): DocumentedEndpoint | undefined {
  const normalizedMethod = method === "HEAD" ? "GET" : method;
  return ENDPOINTS_BY_SHAPE.get(`${normalizedMethod} ${pathShape(routePath)}`);
}

/** Every key starts with this, so leaked keys are recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = "cbr_live_";
export const API_KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** 43 base62 characters carry 43 × log2(62) ≈ 256 bits. */
export const API_KEY_SECRET_LENGTH = 43;
/** How much of the secret the key list shows next to the prefix, to tell keys apart. */
export const API_KEY_VISIBLE_SECRET_CHARACTERS = 4;
export const MAX_API_KEY_NAME_LENGTH = 100;

const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{${API_KEY_SECRET_LENGTH}}$`);

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

/**
 * Builds a key from random bytes (the caller passes a cryptographically secure source). Bytes at or
 * above the largest multiple of 62 that fits in a byte are skipped, so every character is uniform.
 */
export function encodeApiKey(randomBytes: (count: number) => Uint8Array): string {
  const alphabetSize = API_KEY_ALPHABET.length;
  const unbiasedLimit = 256 - (256 % alphabetSize);
  let secret = "";
  while (secret.length < API_KEY_SECRET_LENGTH) {
    for (const byte of randomBytes(API_KEY_SECRET_LENGTH)) {
      if (byte >= unbiasedLimit) continue;
      secret += API_KEY_ALPHABET[byte % alphabetSize];
      if (secret.length === API_KEY_SECRET_LENGTH) break;
    }
  }
  return API_KEY_PREFIX + secret;
}

/** What the key list shows: "cbr_live_Ab3x". */
export function visibleKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + API_KEY_VISIBLE_SECRET_CHARACTERS);
}

export const RATE_LIMIT_WINDOW_MS = 3_600_000;

export interface FixedWindow {
  startMs: number;
  resetMs: number;
}

/** The clock hour (UTC) that `nowMs` falls in: limits reset on the hour, not an hour after first use. */
export function fixedWindow(nowMs: number, windowMs = RATE_LIMIT_WINDOW_MS): FixedWindow {
  const startMs = Math.floor(nowMs / windowMs) * windowMs;
  return { startMs, resetMs: startMs + windowMs };
}

/**
 * Regional nodes count a key's requests locally and add them to the shared count on the primary in
 * the background (docs/deployment.md). A node admits at most this many requests per key and endpoint
 * that the primary has not yet counted, then waits for the count: 2% of the hourly limit, at least 1.
 */
export const REGIONAL_SLACK_PERCENT = 2;

export function regionalCountSlack(limitPerHour: number): number {
  return Math.max(1, Math.ceil((limitPerHour * REGIONAL_SLACK_PERCENT) / 100));
}

/**
 * The most requests a key can be served in one window across headquarters (exact) and
 * `regionalNodes` regional nodes while the primary answers: each regional node can have admitted
 * at most its slack beyond what the others had counted when it last heard the total.
 */
export function crossRegionLimitBound(limitPerHour: number, regionalNodes: number): number {
  return limitPerHour + regionalNodes * regionalCountSlack(limitPerHour);
}

export function documentedLimitPerHour(endpointIdentifier: string): number | undefined {
  return DOCUMENTED_ENDPOINTS.find((endpoint) => endpointId(endpoint) === endpointIdentifier)?.limitPerHour;
}
