/**
 * Staff users made the way an administrator makes them: POST /api/users, then the first-sign-in
 * password change. A fresh test app has one administrator (dual control not in force), so these are
 * made at once; an approver made that way decides nothing until a second administrator confirms it.
 * For tests that are not about dual control, `seededStaff` makes staff the way the demo seed does,
 * as if under dual control.
 */
import type { Role } from "../../src/domain/access.ts";
import { SYSTEM_USER_ID } from "../../db/schema.ts";
import { SEED_GRANT } from "../../src/server/auth/role_grants.ts";
import { createStaffUser } from "../../src/server/features/users/service.ts";
import { expectJson, type Requester, type TestApp } from "./test_app.ts";

export const STAFF_PASSWORD = "staff-password-for-tests";

export interface Staff {
  id: string;
  email: string;
  cookie: string;
}

/** Creates the user as the given administrator, signs in, replaces the initial password; returns a live session. */
export async function createStaff(
  t: TestApp,
  adminCookie: string,
  email: string,
  roles: Role[],
): Promise<Staff> {
  const created = await expectJson<{ user: { id: string }; initialPassword: string }>(
    await t.request("POST", "/api/users", { cookie: adminCookie, body: { email, roles } }),
    201,
  );
  return await firstSignIn(t, created.user.id, email, created.initialPassword);
}

/** Made as the demo seed makes its staff (as if under dual control): an approver made so decides at once. */
export async function seededStaff(t: TestApp, email: string, roles: Role[]): Promise<Staff> {
  const seedActor = { userId: SYSTEM_USER_ID, ipAddress: null, userAgent: "test-seed" };
  const created = await createStaffUser(t.deps.db, t.deps.config, seedActor, {
    email,
    firstName: null,
    lastName: null,
    roles,
  }, SEED_GRANT);
  return await firstSignIn(t, created.user.id, email, created.initialPassword);
}

/** Signs in with the one-time password and replaces it; returns the live session. */
export async function firstSignIn(t: TestApp, id: string, email: string, initialPassword: string): Promise<Staff> {
  const cookie = await t.login(email, initialPassword);
  await expectJson(
    await t.request("POST", "/api/auth/password", {
      cookie,
      body: { currentPassword: initialPassword, newPassword: STAFF_PASSWORD },
    }),
    204,
  );
  return { id, email, cookie };
}

/** Approves, as `approverCookie`, the four-eyes request a 202 answer filed; answers the approval's body. */
export async function approvePending(t: TestApp, approverCookie: string, pendingAnswer: Response) {
  const pending = await expectJson<{ approvalRequest: { id: string } }>(pendingAnswer, 202);
  return await expectJson(
    await t.request("POST", `/api/approvals/${pending.approvalRequest.id}/approve`, {
      cookie: approverCookie,
      body: { reason: "Checked" },
    }),
    200,
  );
}

const secondPersons = new WeakMap<TestApp, Promise<Staff>>();

/**
 * An approver made once per app by its administrator, for tests that need a movement approved by
 * a second person without being about four-eyes control themselves.
 */
export function secondPerson(t: TestApp): Promise<Staff> {
  let staff = secondPersons.get(t);
  if (!staff) {
    staff = seededStaff(t, `second-person-${crypto.randomUUID().slice(0, 8)}@centralbank.test`, ["approver"]);
    secondPersons.set(t, staff);
  }
  return staff;
}

export interface DecidedRequest {
  id: string;
  status: string;
  resultEntityType: string | null;
  resultEntityId: string | null;
}

/** Has a second person approve the request a 202 answer filed (as `req`'s app); answers the decided request. */
export async function approvedBySecondPerson(req: Requester, pendingAnswer: Response): Promise<DecidedRequest> {
  const checker = await secondPerson(req.testApp);
  return await approvePending(req.testApp, checker.cookie, pendingAnswer);
}

const operators = new WeakMap<TestApp, Promise<Staff>>();

/**
 * An operator made once per app by its administrator, for tests that move money or register
 * things: the first administrator holds administrator alone.
 */
export function operatorOf(t: TestApp): Promise<Staff> {
  let staff = operators.get(t);
  if (!staff) {
    staff = t.login().then((adminCookie) =>
      createStaff(t, adminCookie, `operator-${crypto.randomUUID().slice(0, 8)}@centralbank.test`, ["operator"])
    );
    operators.set(t, staff);
  }
  return staff;
}
