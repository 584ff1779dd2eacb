/**
 * A real OpenID provider for the tests (oidc-provider, the certified Node implementation) on a free
 * loopback port, with its development sign-in pages: any login name with any password signs in as
 * that account. The accounts and their claims are given by the test.
 *
 * To prove the console refuses a bad ID token, `tamper` makes the provider's token endpoint answer
 * with its ID token changed in one claim and signed again with the provider's own key, so only
 * that claim is wrong (or, for "signature", changed without signing again), as a compromised or
 * misconfigured provider, or an attacker in the middle, would answer.
 */
import Provider from "oidc-provider";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from "jose";

export type Tamper = "issuer" | "audience" | "nonce" | "expired" | "signature";

export interface TestAccount {
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  roles?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Makes every following token answer carry this fault, until set back to null. */
  tamper(fault: Tamper | null): void;
  stop(): Promise<void>;
}

const KEY_ID = "test-signing-key";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

export async function startProvider(
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<TestProvider> {
  const port = freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "registry-console";
  const clientSecret = crypto.randomUUID();
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: KEY_ID, alg: "RS256", use: "sig" };
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri] }],
    jwks: { keys: [jwk] },
    // The console reads the e-mail and roles from the ID token, as the bank's provider is set up to send them.
    conformIdTokenClaims: false,
    claims: {
      openid: ["sub", "roles"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name"],
    },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => {
        const account = accounts[id] ?? {};
        return {
          sub: id,
          email: account.email ?? `${id}@centralbank.test`,
          email_verified: account.emailVerified ?? true,
          given_name: account.givenName,
          family_name: account.familyName,
          roles: account.roles ?? [],
        };
      },
    }),
  });
  let fault: Tamper | null = null;
  provider.use(async (ctx: { path: string; body: unknown }, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (fault === null || ctx.path !== "/token" || !body?.id_token) return;
    if (fault === "signature") {
      const [header, , signature] = body.id_token.split(".");
      const claims = { ...decodeJwt(body.id_token), email: "someone-else@centralbank.test" };
      const forged = btoa(JSON.stringify(claims)).replaceAll("+", "-").replaceAll("/", "_").replace(
        /=+$/,
        "",
      );
      body.id_token = [header, forged, signature].join(".");
      return;
    }
    const claims = { ...decodeJwt(body.id_token) };
    const now = Math.floor(Date.now() / 1000);
    if (fault === "issuer") claims.iss = "http://127.0.0.1:1/not-the-provider";
    if (fault === "audience") claims.aud = "another-client";
    if (fault === "nonce") claims.nonce = "not-the-nonce-the-console-sent";
    if (fault === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: KEY_ID }).sign(
      privateKey,
    );
  });
  const server = provider.listen(port, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    issuer,
    clientId,
    clientSecret,
    tamper: (next) => {
      fault = next;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
