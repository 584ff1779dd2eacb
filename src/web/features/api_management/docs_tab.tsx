/**
 * How to call the API (spec 2.14): the bearer header, the base URL, the response envelope, limits
 * and HTTP 429, and the OpenAPI document rendered as a readable list of operations.
 */
import type { ReactNode } from "react";
import { Spinner } from "../../components/ui/spinner.tsx";
import { EmptyState, Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { API_KEY_PREFIX, DOCUMENTED_ENDPOINTS } from "../../../domain/public_api.ts";
import { CopyButton } from "./copy_button.tsx";
import { MethodBadge } from "./endpoints_tab.tsx";
import { useOpenApiDocument } from "./api.ts";
import { OPENAPI_KEY, type OpenApiOperation, type OpenApiParameter } from "./types.ts";
import { TitledCard } from "../../components/ui/card.tsx";

function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-sm text-slate-900">{children}
  </code>;
}

function Block({ label, text }: { label: string; text: string }) {
  return (
    <div className="relative">
      <pre
        tabIndex={0}
        className="overflow-x-auto rounded-md bg-slate-900 p-4 pr-24 text-xs text-slate-100"
      >{text}</pre>
      <div className="absolute right-2 top-2">
        <CopyButton text={text} label={`Copy ${label}`} toastDescription={label} />
      </div>
    </div>
  );
}

function schemaType(parameter: OpenApiParameter): string {
  const schema = parameter.schema ?? {};
  if (schema.enum) return schema.enum.map(String).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null").join(" | ") : schema.type;
  return type ?? "string";
}

function Operation(
  { method, path, operation }: { method: string; path: string; operation: OpenApiOperation },
) {
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  const bodyFields = Object.entries(body?.properties ?? {});
  return (
    <article
      className="rounded-md border border-slate-200 p-4"
      aria-label={`${method.toUpperCase()} ${path}`}
    >
      <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
        <MethodBadge method={method.toUpperCase()} />
        <span className="font-mono">{path}</span>
        {operation["x-rate-limit-per-hour"] !== undefined && (
          <span className="font-normal text-slate-600">
            {operation["x-rate-limit-per-hour"]} requests/hour
          </span>
        )}
      </h3>
      {operation.summary && <p className="mt-2 text-sm text-slate-800">{operation.summary}</p>}
      {parameters.length > 0 && (
        <div className="mt-3">
          <Table label={`Parameters of ${method.toUpperCase()} ${path}`}>
            <THead>
              <Tr>
                <Th>Parameter</Th>
                <Th>In</Th>
                <Th>Type</Th>
                <Th>Required</Th>
              </Tr>
            </THead>
            <TBody>
              {parameters.map((parameter) => (
                <Tr key={`${parameter.in} ${parameter.name}`}>
                  <Td className="font-mono text-xs">{parameter.name}</Td>
                  <Td>{parameter.in}</Td>
                  <Td className="font-mono text-xs">{schemaType(parameter)}</Td>
                  <Td>{parameter.required ? "yes" : "no"}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </div>
      )}
      {bodyFields.length > 0 && (
        <p className="mt-3 text-sm text-slate-800">
          JSON body: {bodyFields.map(([name, field], index) => (
            <span key={name}>
              {index > 0 && ", "}
              <Code>{name}</Code> ({Array.isArray(field.type) ? field.type.join(" | ") : field.type ?? "any"}
              {body?.required?.includes(name) ? ", required" : ""})
            </span>
          ))}
        </p>
      )}
      <p className="mt-3 text-xs text-slate-600">
        Responses: {Object.entries(operation.responses ?? {}).map(([status, response]) =>
          `${status} ${response.description ?? ""}`.trim()
        ).join(" · ")}
      </p>
    </article>
  );
}

function OpenApiReference() {
  const spec = useOpenApiDocument();
  if (spec.isLoading) return <Spinner label="Loading the OpenAPI document" />;
  if (spec.isError || !spec.data) {
    return (
      <EmptyState title="The OpenAPI document could not be loaded" text="Reload the page to try again." />
    );
  }
  const operations = Object.entries(spec.data.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation }))
  );
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-800">
        {spec.data.info.title}, version {spec.data.info.version} (OpenAPI {spec.data.openapi}).{" "}
        <a href={OPENAPI_KEY} download="openapi.json" className="font-medium text-blue-800 underline">
          Download openapi.json
        </a>
      </p>
      {operations.map(({ path, method, operation }) => (
        <Operation key={`${method} ${path}`} method={method} path={path} operation={operation} />
      ))}
    </div>
  );
}

function AuthenticationCard({ baseUrl }: { baseUrl: string }) {
  const curl = `curl -H "Authorization: Bearer ${API_KEY_PREFIX}…" ${baseUrl}/routing-codes/ABC00012346`;
  return (
    <TitledCard
      title="Authentication"
      description="Every request carries an API key created on the Keys tab."
      contentClassName="space-y-3 text-sm text-slate-800"
    >
      <p>
        Send the key in the <Code>Authorization</Code> header as a bearer token:{" "}
        <Code>Authorization: Bearer {API_KEY_PREFIX}…</Code>. A missing, unknown, revoked or expired key
        answers HTTP 401 Unauthorized; a key on any route other than the documented endpoints answers HTTP
        403.
      </p>
      <p>
        Base URL: <Code>{baseUrl}</Code>
      </p>
      <Block label="curl example" text={curl} />
    </TitledCard>
  );
}

function ResponseFormatCard() {
  const success = JSON.stringify(
    { data: { code: "ABC00012346", status: "active" }, success: true, timestamp: "2026-01-15T09:30:00.000Z" },
    null,
    2,
  );
  const failure = JSON.stringify(
    {
      success: false,
      error: "Rate limit exceeded: 500 requests per hour for GET /api/routing-codes/{code}",
      code: "rate_limited",
      timestamp: "2026-01-15T09:30:00.000Z",
    },
    null,
    2,
  );
  return (
    <TitledCard
      title="Response Format"
      description="JSON with the fields data, success and timestamp."
      contentClassName="grid gap-4 text-sm text-slate-800 lg:grid-cols-2"
    >
      <div className="space-y-2">
        <p>
          Success (HTTP 200): the record or list is in <Code>data</Code>.
        </p>
        <Block label="success response" text={success} />
      </div>
      <div className="space-y-2">
        <p>
          Failure (HTTP 400, 401, 403, 404, 429): <Code>success</Code> is false and <Code>error</Code>{" "}
          says why.
        </p>
        <Block label="error response" text={failure} />
      </div>
    </TitledCard>
  );
}

function RateLimitsCard() {
  const example = DOCUMENTED_ENDPOINTS.find((endpoint) => endpoint.path === "/api/routing-codes/{code}")!;
  return (
    <TitledCard
      title="Rate Limits"
      description="Counted per API key and endpoint, shared by every server of the registry."
      contentClassName="space-y-3 text-sm text-slate-800"
    >
      <p>
        Limits apply per clock hour (UTC): the count starts again at the top of every hour. Past the limit the
        API answers <strong>HTTP 429 Too Many Requests</strong> with a <Code>Retry-After</Code>{" "}
        header (seconds until the hour ends). Every answer to a key carries <Code>RateLimit-Limit</Code>,{" "}
        <Code>RateLimit-Remaining</Code> and <Code>RateLimit-Reset</Code>{" "}
        (seconds until the hour ends), for example {example.limitPerHour} for{" "}
        <Code>{example.method} {example.path}</Code>.
      </p>
      <ul className="list-disc space-y-1 pl-5">
        {DOCUMENTED_ENDPOINTS.map((endpoint) => (
          <li key={`${endpoint.method} ${endpoint.path}`}>
            <Code>{endpoint.method} {endpoint.path}</Code>: {endpoint.limitPerHour} per hour
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}

export function DocsTab() {
  const baseUrl = `${globalThis.location.origin}/api`;
  return (
    <div className="space-y-6">
      <AuthenticationCard baseUrl={baseUrl} />
      <ResponseFormatCard />
      <RateLimitsCard />
      <TitledCard
        title="OpenAPI Reference"
        description="Generated from the same schemas the server validates requests with."
      >
        <OpenApiReference />
      </TitledCard>
    </div>
  );
}
