/** Staff users made the way an administrator makes them: POST /api/users, then the first-sign-in password change. */
import type { Role } from "../../src/domain/access.ts";
import { expectJson, type TestApp } from "./test_app.ts";

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
  const cookie = await t.login(email, created.initialPassword);
  await expectJson(
    await t.request("POST", "/api/auth/password", {
      cookie,
      body: { currentPassword: created.initialPassword, newPassword: STAFF_PASSWORD },
    }),
    204,
  );
  return { id: created.user.id, email, cookie };
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
