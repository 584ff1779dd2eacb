/**
 * Single sign-on driven without a browser: the console in process (tests/helpers/test_app.ts) and a
 * real oidc-provider on loopback (tests/helpers/oidc_provider.ts), whose development sign-in and
 * consent forms are filled in over HTTP, cookies kept as a browser would.
 */
import type { TestProvider } from "../helpers/oidc_provider.ts";
import type { TestApp } from "../helpers/test_app.ts";

/** The in-process console answers at http://localhost. */
export const REDIRECT_URI = "http://localhost/api/login/oidc/callback";
const MAX_PROVIDER_STEPS = 12;

export function ssoEnv(provider: TestProvider): Record<string, string> {
  return {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_REDIRECT_URI: REDIRECT_URI,
    OIDC_PROVIDER_NAME: "Bank ID",
    OIDC_ROLE_MAP: "registry-admins=admin,registry-staff=operator",
    // The first administrator signs in with its password to administer.
    OIDC_LOCAL_BREAK_GLASS: "1",
  };
}

function keep(jar: Map<string, string>, setCookies: string[]) {
  for (const line of setCookies) {
    const pair = line.split(";")[0];
    const at = pair.indexOf("=");
    const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (value === "" || /max-age=0\b/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

const cookieHeader = (jar: Map<string, string>) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/** From the provider's authorization URL through its sign-in and consent forms to the console's callback URL. */
async function throughProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < MAX_PROVIDER_STEPS; step++) {
    if (url.startsWith(REDIRECT_URI)) return new URL(url);
    const res = await fetch(url, {
      method: body ? "POST" : "GET",
      body,
      redirect: "manual",
      headers: { cookie: cookieHeader(jar) },
    });
    keep(jar, res.headers.getSetCookie());
    const location = res.headers.get("location");
    if (location) {
      await res.body?.cancel();
      [url, body] = [new URL(location, url).href, undefined];
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) {
      throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 500)}`);
    }
    url = new URL(action.replaceAll("&amp;", "&"), url).href;
    body = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any-password" } : { prompt });
  }
  throw new Error(`the provider did not send ${login} back to the console`);
}

export interface SsoOutcome {
  status: number;
  /** The session cookie (name=value) of a completed sign-in, else null. */
  session: string | null;
  /** The sign-in page's text when the sign-in was refused. */
  page: string;
}

/** Signs `login` in at the provider and completes the console's callback, as a new browser would. */
export async function signInThroughProvider(t: TestApp, login: string): Promise<SsoOutcome> {
  const start = await t.request("GET", "/api/login/oidc");
  if (start.status !== 302) {
    throw new Error(`GET /api/login/oidc answered ${start.status}: ${await start.text()}`);
  }
  const flow = start.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const callback = await throughProvider(start.headers.get("location")!, login);
  const res = await t.request("GET", `${callback.pathname}${callback.search}`, { cookie: flow });
  const session = res.headers.getSetCookie().map((line) => line.split(";")[0])
    .find((pair) => /^(__Host-)?cbr_session=./.test(pair)) ?? null;
  return { status: res.status, session, page: await res.text() };
}
