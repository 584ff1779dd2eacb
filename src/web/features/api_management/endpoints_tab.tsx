/** The documented endpoints (spec 7) with their hourly limits and a copy-path button each. */
import { Badge } from "../../components/ui/badge.tsx";
import { Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { DOCUMENTED_ENDPOINTS } from "../../../domain/public_api.ts";
import { CopyButton } from "./copy_button.tsx";
import { TitledCard } from "../../components/ui/card.tsx";

export function MethodBadge({ method }: { method: string }) {
  return <Badge variant={method === "GET" ? "secondary" : "default"} className="font-mono">{method}</Badge>;
}

export function EndpointsTab() {
  return (
    <TitledCard
      title="Documented Endpoints"
      description={
        <>
          Read-only lookups for commercial banks and payment systems. Each accepts an API key or a signed-in
          session; the limits count per API key.
        </>
      }
    >
      <Table label="Documented endpoints">
        <THead>
          <Tr>
            <Th>Method</Th>
            <Th>Path</Th>
            <Th>Description</Th>
            <Th>Limit</Th>
            <Th>
              <span className="sr-only">Copy</span>
            </Th>
          </Tr>
        </THead>
        <TBody>
          {DOCUMENTED_ENDPOINTS.map((endpoint) => (
            <Tr key={`${endpoint.method} ${endpoint.path}`}>
              <Td>
                <MethodBadge method={endpoint.method} />
              </Td>
              <Td className="font-mono text-sm">{endpoint.path}</Td>
              <Td>{endpoint.summary}</Td>
              <Td className="whitespace-nowrap">{endpoint.limitPerHour}/hour</Td>
              <Td className="text-right">
                <CopyButton
                  text={endpoint.path}
                  label={`Copy path ${endpoint.path}`}
                  toastDescription={endpoint.path}
                />
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </TitledCard>
  );
}
