/**
 * In-process API testing: a fresh temporary libSQL file per call, the real bootstrap (migrations,
 * first admin, reference seeds; no demo data) and the real Hono app, driven through app.request().
 */
import { createApp } from "../../src/server/http/app.ts";
import { useAuditChainKey } from "../../src/server/audit/chain_key.ts";
import { bootstrap } from "../../src/server/startup/bootstrap.ts";
import { type Config, loadConfig } from "../../src/server/config.ts";
import type { AppDeps } from "../../src/server/http/context.ts";
import type { Clock } from "../../src/server/topology/clock.ts";
import { ROLES, ROUTE_RULES } from "../../src/domain/access.ts";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { SEED_GRANT } from "../../src/server/auth/role_grants.ts";
import { createStaffUser } from "../../src/server/features/users/service.ts";

export const ADMIN_EMAIL = "admin@centralbank.test";
export const ADMIN_PASSWORD = "correct-horse-battery";
/** argon2id stays argon2id in tests, just cheap enough to sign in many times. */
export const TEST_PASSWORD_HASH_COST = { memoryKiB: 1024, iterations: 1, parallelism: 1 };

export interface TestApp {
  deps: AppDeps;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** Sends a request; a plain object body is sent as JSON. */
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /** Signs in as the first admin (or the given user) and returns the Cookie header value. */
  login(email?: string, password?: string): Promise<string>;
  /** Shorthand: request as the signed-in admin. */
  as(cookie: string): Requester;
  /**
   * The central bank's desk for tests that are about a feature rather than about who may use it:
   * each request goes as the first administrator, or, on a route that operators use (registering,
   * moving money, requesting), as an operator made once per app. The first administrator holds
   * administrator alone, so no single session can do both.
   */
  desk(): Promise<Desk>;
  close(): Promise<void>;
}

/** The desk's requester, with the cookies of its two sessions. */
export type Desk = Requester & { readonly adminCookie: string; readonly operatorCookie: string };

/** Requests as one signed-in user; `testApp` reaches the app, e.g. to have a second person approve. */
export type Requester = ((method: string, path: string, options?: RequestOptions) => Promise<Response>) & {
  readonly testApp: TestApp;
};

export interface RequestOptions {
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
}

export interface TestAppOptions {
  /** Open another app on this app's data folder (a second process on one database); the owner removes it. */
  dataDir?: string;
  /** The app's clock in place of the node's own (a replicated node's runs on the primary's time). */
  clock?: Clock;
}

export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? await Deno.makeTempDir({ prefix: "cbr-test-" });
  const base = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_DEMO: "0",
    // Tests sign in with a password alone unless they test the second factor.
    REQUIRE_MFA: "0",
    ...env,
  });
  const config: Config = { ...base, passwordHashCost: TEST_PASSWORD_HASH_COST };
  const booted = await bootstrap(config, () => {});
  const deps: AppDeps = options.clock ? { ...booted, clock: options.clock } : booted;
  const app = createApp(deps);

  const request = (method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.cookie = options.cookie;
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === "string" || options.body instanceof FormData || options.body instanceof URLSearchParams) {
        body = options.body;
      } else {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
    }
    return Promise.resolve(app.request(`http://localhost${path}`, { method, headers, body }));
  };

  const login = async (email = ADMIN_EMAIL, password = ADMIN_PASSWORD) => {
    const res = await request("POST", "/api/login", { body: { email, password } });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
    const setCookie = res.headers.get("set-cookie") ?? "";
    return setCookie.split(";")[0];
  };

  let deskCookies: Promise<{ admin: string; operator: string }> | undefined;
  const deskSessions = () =>
    deskCookies ??= login().then(async (admin) => ({ admin, operator: await makeDeskOperator(deps, login, request) }));

  const testApp: TestApp = {
    deps,
    app,
    dataDir,
    request,
    login,
    as: (cookie) =>
      Object.assign(
        (method: string, path: string, options: RequestOptions = {}) => request(method, path, { ...options, cookie }),
        { testApp },
      ),
    async desk() {
      const cookies = await deskSessions();
      return Object.assign(
        (method: string, path: string, options: RequestOptions = {}) =>
          request(method, path, { ...options, cookie: usesOperator(method, path) ? cookies.operator : cookies.admin }),
        { testApp, adminCookie: cookies.admin, operatorCookie: cookies.operator },
      );
    },
    async close() {
      await app.requestLog.stop();
      deps.db.close();
      if (!options.dataDir) {
        await Deno.remove(dataDir, { recursive: true });
        await Deno.remove(config.auditCheckpointFile).catch(() => {});
      }
    },
  };
  return testApp;
}

/** Reads a JSON body and asserts the status in one step, with the body in the failure message. */
export async function expectJson<T = any>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.status}: ${text.slice(0, 500)}`);
  }
  return text ? JSON.parse(text) : (undefined as T);
}

/**
 * For a process that opens a test database without bootstrap (a worker, an invariant check): loads
 * and registers the audit chain key of the data folder that holds `databaseUrl`'s file.
 */
export async function useChainKeyOfDatabase(databaseUrl: string): Promise<Uint8Array> {
  const path = databaseUrl.slice("file:".length);
  return await useAuditChainKey(loadConfig({ DATA_DIR: path.slice(0, path.lastIndexOf("/")) }), { create: false });
}

export const DESK_OPERATOR_PASSWORD = "desk-operator-password-for-tests";

/** Made as the demo seed makes its staff, so that it costs no API request and works under dual control too. */
async function makeDeskOperator(deps: AppDeps, login: TestApp["login"], request: TestApp["request"]): Promise<string> {
  const email = `desk-operator-${crypto.randomUUID().slice(0, 8)}@centralbank.test`;
  const seedActor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "test-seed" };
  const created = await createStaffUser(deps.db, deps.config, seedActor, {
    email,
    firstName: null,
    lastName: null,
    roles: ["operator"],
  }, SEED_GRANT);
  const cookie = await login(email, created.initialPassword);
  await expectJson(
    await request("POST", "/api/auth/password", {
      cookie,
      body: { currentPassword: created.initialPassword, newPassword: DESK_OPERATOR_PASSWORD },
    }),
    204,
  );
  return cookie;
}

const routePatterns = Object.keys(ROUTE_RULES).map((key) => {
  const [method, path] = key.split(" ");
  const pattern = new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`);
  return { method, pattern, rule: ROUTE_RULES[key] };
});

/** Operators' routes go as the operator; reading, and administering, as the administrator (who may read everything). */
function usesOperator(method: string, url: string): boolean {
  const path = url.split("?")[0];
  const match = routePatterns.find((route) => route.method === method && route.pattern.test(path));
  if (!match || match.rule.roles === "signed-in") return false;
  return match.rule.roles.includes("operator") && match.rule.roles.length < ROLES.length;
}
