/**
 * The OpenAPI 3.1 document of the public API, served at GET /api/openapi.json (behind the session,
 * like every /api route; API keys reach the documented endpoints only). It is generated with
 * @hono/zod-openapi from the very zod schemas the feature routes validate with, so the document
 * cannot drift from what the server accepts. Like app.ts, this is a composition root: the one
 * module besides app.ts that imports several features.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { z } from "zod";
import {
  DOCUMENTED_ENDPOINTS,
  type DocumentedEndpoint,
  endpointId,
  RATE_LIMIT_WINDOW_MS,
} from "../../domain/public_api.ts";
import type { AppEnv } from "./context.ts";
import {
  asOfQuerySchema,
  institutionIdParamSchema,
  institutionListQuerySchema,
  institutionSchema,
  searchQuerySchema,
  searchResultSchema,
} from "../features/institutions/schemas.ts";
import { ibanValidationResponseSchema, validateIbanBody } from "../features/iban/schemas.ts";
import { routingCodeLookupSchema, routingCodeParam } from "../features/routing_codes/schemas.ts";
import { bicParam, swiftCodeLookupSchema } from "../features/swift_codes/schemas.ts";
import { asOfQuery } from "../registry_history/instants.ts";
import { editionParamSchema } from "../features/directory/schemas.ts";

export const OPENAPI_PATH = "/api/openapi.json";
export const API_TITLE = "Central Bank Registry public API";
export const API_VERSION = "1.0.0";
export const BEARER_SCHEME = "bearerAuth";

type RequestParts = {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
};

const AS_OF_ANSWER = "`asOf` (a date such as 2027-03-01, read as 00:00 UTC, or an ISO date-time) answers the " +
  "code as in force at that instant (404 before it was registered); without it, as in force now. " +
  "`deletionAnnounced` is true once the code's coming deletion has been announced.";

/** Request and success shapes of each documented endpoint, keyed by endpointId(). */
const OPERATIONS: Record<string, { request: RequestParts; data: z.ZodType; description: string }> = {
  "GET /api/institutions": {
    request: { query: institutionListQuerySchema },
    data: z.array(institutionSchema),
    description: "Newest first. `search` matches name, registration number, license number or e-mail, " +
      "or a whole LEI; the total number of matches is in the X-Total-Count header. With `asOf` the registry " +
      "as in force at that instant (search then matches name, registration number or LEI).",
  },
  "GET /api/institutions/{id}": {
    request: { params: institutionIdParamSchema, query: asOfQuerySchema },
    data: institutionSchema,
    description: "One institution by its id, as in force now or at `asOf`. A terminated institution answers " +
      "status `terminated` and its successor.",
  },
  "GET /api/routing-codes/{code}": {
    request: { params: routingCodeParam, query: asOfQuery },
    data: routingCodeLookupSchema,
    description: "A national routing code exactly as assigned; a code with wrong check digits is a 400. " +
      AS_OF_ANSWER + " A terminated code answers 200 with status `terminated`, its `successorCode` and " +
      "`successor` (the successor's code, institution and status as of the same instant).",
  },
  "GET /api/swift-codes/{bic}": {
    request: { params: bicParam, query: asOfQuery },
    data: swiftCodeLookupSchema,
    description: "A registered BIC (8 or 11 characters, ISO 9362). " + AS_OF_ANSWER +
      " A terminated BIC answers 200 with status `terminated`, its `successorBic` and `successor` " +
      "(the successor's BIC, institution and status as of the same instant).",
  },
  "POST /api/iban/validate": {
    request: { body: validateIbanBody },
    data: ibanValidationResponseSchema,
    description:
      "Validates an IBAN (ISO 13616: country format, length, MOD 97-10 and national check digits). " +
      "An invalid IBAN is a 200 with valid: false and details.error.",
  },
  "GET /api/search": {
    request: { query: searchQuerySchema },
    data: searchResultSchema,
    description: "Records of the given type (routing, swift or institution) matching the query text. " +
      "For routing codes and BICs, `asOf` answers the records registered by then, as in force then.",
  },
  "GET /api/directory/editions": {
    request: {},
    data: z.array(editionListItemSchema()),
    description:
      "Every published directory edition, newest first, with its record counts and its files' paths.",
  },
  ...directoryFileOperations(),
};

function editionListItemSchema() {
  const counts = z.record(z.string(), z.record(z.string(), z.number().int()))
    .describe("Per record type (INST, RTC, BIC): total and per change flag (A, M, D, U)");
  return z.object({
    number: z.number().int(),
    effectiveDate: z.string().describe("ISO-8601 UTC instant the edition is in force from"),
    previousNumber: z.number().int().nullable(),
    publishedAt: z.string(),
    reason: z.string(),
    keyId: z.string().describe("JWK thumbprint of the key that signed the manifest"),
    counts: z.object({ full: counts, delta: counts }),
    files: z.array(z.object({ name: z.string(), url: z.string() })),
  });
}

/** The download endpoints: a file, not the envelope (docs/directory.md). */
function directoryFileOperations(): typeof OPERATIONS {
  const descriptions: Record<string, string> = {
    "manifest.json": "The edition's manifest: number, dates, counts, and each file's name, size and SHA-256.",
    "manifest.json.sig": "The raw 64-byte Ed25519 signature of the manifest's bytes " +
      "(`openssl pkeyutl -verify -pubin -inkey directory-key.pem -rawin -in manifest.json -sigfile manifest.json.sig`).",
    "manifest.json.jws": "The manifest's JWS with detached content (RFC 7515 appendix F), alg EdDSA.",
    "full.csv": "Every record in force at the effective date (RFC 4180), flagged A, M or U.",
    "delta.csv": "The changes since the previous edition (RFC 4180), flagged A, M or D.",
    "full.txt": "The full file in the fixed-width layout.",
  };
  const operations: typeof OPERATIONS = {};
  for (const [name, description] of Object.entries(descriptions)) {
    operations[`GET /api/directory/editions/{n}/${name}`] = {
      request: { params: editionParamSchema },
      data: z.string(),
      description: `${description} Immutable: a strong ETag (the SHA-256) answers If-None-Match with 304.`,
    };
  }
  for (const format of ["pem", "jwk"]) {
    operations[`GET /api/directory/public-key.${format}`] = {
      request: {},
      data: z.string(),
      description: `The console's Ed25519 directory key (${
        format === "pem" ? "SPKI PEM" : "JWK"
      }), with an ETag.`,
    };
  }
  return operations;
}

const errorSchema = z.object({
  success: z.literal(false),
  error: z.string().describe("What went wrong, for people"),
  code: z.string().describe(
    "Machine-readable: validation, unauthorized, forbidden, not_found, rate_limited, …",
  ),
  fields: z.record(z.string(), z.string()).optional().describe("Per-field messages of a validation failure"),
  timestamp: z.string().describe("ISO-8601 UTC time of the response"),
});

const RATE_LIMIT_HEADERS = z.object({
  "RateLimit-Limit": z.number().int().describe("Requests allowed per hour on this endpoint for this key"),
  "RateLimit-Remaining": z.number().int().describe("Requests left in the current window"),
  "RateLimit-Reset": z.number().int().describe(
    "Seconds until the current window ends (windows are clock hours, UTC)",
  ),
  "RateLimit-Policy": z.string().describe('The limit and the window in seconds, e.g. "500;w=3600"'),
});

const REFUSAL_HEADERS = RATE_LIMIT_HEADERS.extend({
  "Retry-After": z.number().int().describe("Seconds until the window ends and requests are accepted again"),
});

function errorResponse(description: string, headers?: typeof REFUSAL_HEADERS) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: errorSchema } },
  };
}

function envelopeResponse(data: z.ZodType) {
  return {
    200: {
      description: "Success, in the envelope",
      headers: RATE_LIMIT_HEADERS,
      content: {
        "application/json": {
          schema: z.object({
            data,
            success: z.literal(true),
            timestamp: z.string().describe("ISO-8601 UTC time of the response"),
          }),
        },
      },
    },
  };
}

const FILE_HEADERS = RATE_LIMIT_HEADERS.extend({
  ETag: z.string().describe("Strong validator: the file's SHA-256 in quotes"),
});

/** A download: its bytes as they are (no envelope), and 304 for a client that holds them already. */
function fileResponses(contentType: string) {
  return {
    200: {
      description: "The file, byte for byte (not in the envelope)",
      headers: FILE_HEADERS,
      content: { [contentType]: { schema: z.string().describe("The file") } },
    },
    304: { description: "Not modified: If-None-Match named the current ETag", headers: FILE_HEADERS },
  };
}

function registerEndpoint(app: OpenAPIHono, endpoint: DocumentedEndpoint): void {
  const operation = OPERATIONS[endpointId(endpoint)];
  if (!operation) throw new Error(`no OpenAPI operation for ${endpointId(endpoint)}`);
  const { params, query, body } = operation.request;
  app.openAPIRegistry.registerPath({
    method: endpoint.method === "GET" ? "get" : "post",
    path: endpoint.path,
    summary: endpoint.summary,
    description: `${operation.description}\n\nLimit: ${endpoint.limitPerHour} requests per hour per API key.`,
    tags: ["Public lookup API"],
    security: [{ [BEARER_SCHEME]: [] }],
    "x-rate-limit-per-hour": endpoint.limitPerHour,
    request: {
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(body ? { body: { required: true, content: { "application/json": { schema: body } } } } : {}),
    },
    responses: {
      ...(endpoint.file ? fileResponses(endpoint.file) : envelopeResponse(operation.data)),
      400: errorResponse("Invalid input: `fields` names each offending parameter"),
      401: errorResponse('Missing, unknown, revoked or expired API key (error: "Unauthorized")'),
      403: errorResponse("The key may not call this route (keys reach the documented endpoints only)"),
      404: errorResponse("No such record"),
      429: errorResponse(
        `Hourly limit reached (${endpoint.limitPerHour} per hour); retry after Retry-After seconds`,
        REFUSAL_HEADERS,
      ),
    },
  });
}

/**
 * Built on the first request for it. The generator is imported then too: imported at start it held
 * a few MiB of every serving process, which mostly never serves the document.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const { OpenAPIHono } = await import("@hono/zod-openapi");
  const app = new OpenAPIHono();
  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
    type: "http",
    scheme: "bearer",
    description: "An API key created on the API Management screen: `Authorization: Bearer cbr_live_…`",
  });
  for (const endpoint of DOCUMENTED_ENDPOINTS) registerEndpoint(app, endpoint);
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description: "Read-only lookups of the national registry for commercial banks and payment systems. " +
        "Every response is an envelope: `{data, success: true, timestamp}` or `{success: false, error, code, timestamp}`. " +
        `Limits count per API key and endpoint in fixed windows of ${
          RATE_LIMIT_WINDOW_MS / 60_000
        } minutes ` +
        "aligned to the clock hour (UTC); past a limit the answer is HTTP 429 with Retry-After.",
    },
    servers: [{ url: "/", description: "This server; paths start with /api" }],
    security: [{ [BEARER_SCHEME]: [] }],
  }) as unknown as Record<string, unknown>;
}

export function openApiRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let document: Record<string, unknown> | undefined;
  app.get("/openapi.json", async (c) => {
    document ??= await buildOpenApiDocument();
    return c.json(document);
  });
  return app;
}
