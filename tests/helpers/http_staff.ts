/**
 * Four-eyes over HTTP against a real server process (e2e, replication, faults, benches): staff made
 * the way an administrator makes them, and a second person's approval of a request a 202 filed.
 */

export const HTTP_STAFF_PASSWORD = "staff-password-over-http";

async function send(baseUrl: string, cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Creates the user as the administrator, signs in, replaces the one-time password; answers the session cookie. */
export async function createStaffSession(
  baseUrl: string,
  adminCookie: string,
  email: string,
  roles: string[],
): Promise<string> {
  const created = await send(baseUrl, adminCookie, "POST", "/api/users", { email, roles });
  if (created.status !== 201) throw new Error(`creating ${email}: ${created.status} ${JSON.stringify(created.json)}`);
  const cookie = await signInSession(baseUrl, email, created.json.initialPassword);
  const changed = await send(baseUrl, cookie, "POST", "/api/auth/password", {
    currentPassword: created.json.initialPassword,
    newPassword: HTTP_STAFF_PASSWORD,
  });
  if (changed.status !== 204) throw new Error(`password change of ${email}: ${changed.status}`);
  return cookie;
}

/** An approver's session for a second person's approvals, made once per server and administrator. */
export async function createApproverSession(baseUrl: string, adminCookie: string): Promise<string> {
  return await createStaffSession(
    baseUrl,
    adminCookie,
    `approver-${crypto.randomUUID().slice(0, 8)}@centralbank.test`,
    ["approver"],
  );
}

/** Approves the request a 202 answer filed; answers the approval's status and body (the decided request). */
export async function approveFiled(
  baseUrl: string,
  approverCookie: string,
  pending: { approvalRequest: { id: string } },
): Promise<{ status: number; json: any }> {
  const { status, json } = await send(
    baseUrl,
    approverCookie,
    "POST",
    `/api/approvals/${pending.approvalRequest.id}/approve`,
    { reason: "Checked by a second person" },
  );
  return { status, json };
}

/** The sweep ids an approved automatic run executed, from the decided request. */
export function sweepIdsOfApprovedRun(decided: { resultEntityId: string | null }): string[] {
  return !decided.resultEntityId || decided.resultEntityId === "none" ? [] : decided.resultEntityId.split(",");
}

const approvers = new Map<string, Promise<string>>();

/**
 * Opens a ledger account as `cookie` (an administrator or operator) and answers its id; a funded
 * account is a four-eyes request, which an approver made once per server and session approves.
 */
export async function openAccount(
  baseUrl: string,
  cookie: string,
  body: Record<string, unknown>,
  adminCookie = cookie,
): Promise<string> {
  const res = await send(baseUrl, cookie, "POST", "/api/ledger-accounts", {
    requestReason: "Opening balance",
    ...body,
  });
  if (res.status === 201) return res.json.id;
  if (res.status !== 202) throw new Error(`opening an account: ${res.status} ${JSON.stringify(res.json)}`);
  const key = `${baseUrl} ${adminCookie}`;
  let approver = approvers.get(key);
  if (!approver) {
    approver = createApproverSession(baseUrl, adminCookie);
    approvers.set(key, approver);
  }
  const approved = await approveFiled(baseUrl, await approver, res.json);
  if (approved.status !== 200) throw new Error(`approving an opening balance: ${approved.status}`);
  return approved.json.resultEntityId;
}

/** Signs in with a password alone (servers under test run with REQUIRE_MFA=0); answers the session cookie. */
export async function signInSession(baseUrl: string, email: string, password: string): Promise<string> {
  const login = await send(baseUrl, "", "POST", "/api/login", { email, password });
  if (login.status !== 200) throw new Error(`sign-in of ${email} failed: ${login.status}`);
  return (login.headers.get("set-cookie") ?? "").split(";")[0];
}

/** Has a second person approve every request pending now; answers the decided requests. */
export async function approveAllPending(baseUrl: string, approverCookie: string): Promise<any[]> {
  const pending = await send(baseUrl, approverCookie, "GET", "/api/approvals?status=pending");
  if (pending.status !== 200) throw new Error(`listing pending requests: ${pending.status}`);
  const decided = [];
  for (const request of pending.json) {
    const approved = await approveFiled(baseUrl, approverCookie, { approvalRequest: request });
    if (approved.status !== 200) throw new Error(`approving ${request.id}: ${approved.status} ${JSON.stringify(approved.json)}`);
    decided.push(approved.json);
  }
  return decided;
}
