/** Helpers shared by the API key, rate limit, request log and OpenAPI tests. */
import { expectJson, type TestApp } from "../helpers/test_app.ts";

export const VALID_IBAN = "DE89370400440532013000";
export const BIC = "MERIUS33";

export interface CreatedKey {
  id: string;
  key: string;
}

export async function createKey(
  t: TestApp,
  cookie: string,
  body: Record<string, unknown> = {},
): Promise<CreatedKey> {
  const created = await expectJson(
    await t.request("POST", "/api/api-keys", {
      cookie,
      body: { name: "Clearing house integration", ...body },
    }),
    201,
  );
  return { id: created.id, key: created.key };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** Sends a request with the key (and no cookie). */
export function withKey(t: TestApp, key: string) {
  return (method: string, path: string, body?: unknown) =>
    t.request(method, path, { headers: bearer(key), body });
}

export interface LookupData {
  institutionId: string;
  routingCode: string;
  bic: string;
}

/** An institution with a routing code and a BIC, created through the API like an operator would. */
/** Registers as the desk's operator: `cookie` is the administrator's (kept for the callers' symmetry). */
export async function seedLookupData(t: TestApp, _cookie: string): Promise<LookupData> {
  const req = await t.desk();
  const institution = await expectJson(
    await req("POST", "/api/institutions", {
      body: {
        name: "Meridian Commercial Bank",
        type: "commercial",
        registrationNumber: "REG-API-0001",
        address: "1 Treasury Square",
        phoneNumber: "+1 555 0100",
        emailAddress: "ops@meridian.test",
        swiftParticipant: true,
        swiftMembershipType: "full",
      },
    }),
    201,
  );
  const routing = await expectJson(
    await req("POST", "/api/routing-codes", {
      body: { institutionId: institution.id, prefix: "MER", branchCode: "001" },
    }),
    201,
  );
  await expectJson(
    await req("POST", "/api/swift-codes", {
      body: { institutionId: institution.id, bicCode: BIC, membershipType: "full" },
    }),
    201,
  );
  return { institutionId: institution.id, routingCode: routing.code, bic: BIC };
}
