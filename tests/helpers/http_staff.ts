/**
 * Four-eyes over HTTP against a real server process (e2e, replication, faults, benches): staff made
 * the way an administrator makes them, and a second person's approval of a request a 202 filed.
 * The first administrator holds administrator alone; `staffCrew` makes, once per server and
 * administrator, the operator who moves money, an approver, and the second administrator who
 * confirms that approver (from then on dual control is in force, and `createStaffSession` has the
 * second administrator approve each new user).
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

/**
 * Creates the user as the administrator: at once while they are alone, else a request the crew's
 * second administrator approves. Answers the user's id and one-time password.
 */
export async function createUser(
  baseUrl: string,
  adminCookie: string,
  email: string,
  roles: string[],
): Promise<{ id: string; initialPassword: string }> {
  const created = await send(baseUrl, adminCookie, "POST", "/api/users", {
    email,
    roles,
    requestReason: "Staffing the desk",
  });
  if (created.status === 201) return { id: created.json.user.id, initialPassword: created.json.initialPassword };
  if (created.status !== 202) throw new Error(`creating ${email}: ${created.status} ${JSON.stringify(created.json)}`);
  const approved = await approveFiled(baseUrl, (await staffCrew(baseUrl, adminCookie)).secondAdministrator, created.json);
  if (approved.status !== 200) throw new Error(`approving ${email}: ${approved.status} ${JSON.stringify(approved.json)}`);
  return { id: approved.json.resultEntityId, initialPassword: approved.json.initialPassword };
}

/** Creates the user as the administrator, signs in, replaces the one-time password; answers the session cookie. */
export async function createStaffSession(
  baseUrl: string,
  adminCookie: string,
  email: string,
  roles: string[],
): Promise<string> {
  const { initialPassword } = await createUser(baseUrl, adminCookie, email, roles);
  return await firstSignIn(baseUrl, email, initialPassword);
}

/** Signs in with the one-time password and replaces it (with HTTP_STAFF_PASSWORD unless told); answers the session cookie. */
export async function firstSignIn(
  baseUrl: string,
  email: string,
  initialPassword: string,
  newPassword = HTTP_STAFF_PASSWORD,
): Promise<string> {
  const cookie = await signInSession(baseUrl, email, initialPassword);
  const changed = await send(baseUrl, cookie, "POST", "/api/auth/password", { currentPassword: initialPassword, newPassword });
  if (changed.status !== 204) throw new Error(`password change of ${email}: ${changed.status}`);
  return cookie;
}

/**
 * An administrator's change of the controls (thresholds, limits, sign-in settings): made at once
 * while the administrator is alone, else filed with a reason and approved by the crew's second
 * administrator. Answers the last status and body: the change's, or the approval's.
 */
export async function administer(
  baseUrl: string,
  adminCookie: string,
  method: string,
  path: string,
  body: Record<string, unknown>,
): Promise<{ status: number; json: any }> {
  const res = await send(baseUrl, adminCookie, method, path, { requestReason: "Setting the controls", ...body });
  if (res.status !== 202) return { status: res.status, json: res.json };
  return await approveFiled(baseUrl, (await staffCrew(baseUrl, adminCookie)).secondAdministrator, res.json);
}

/** A second administrator confirms the roles one administrator granted alone: from then on they decide. */
export async function confirmRoles(baseUrl: string, secondAdministratorCookie: string, userId: string) {
  const confirmed = await send(baseUrl, secondAdministratorCookie, "POST", `/api/users/${userId}/confirm-roles`);
  if (confirmed.status !== 200) {
    throw new Error(`confirming the roles of ${userId}: ${confirmed.status} ${JSON.stringify(confirmed.json)}`);
  }
}

export interface StaffCrew {
  operator: string;
  approver: string;
  secondAdministrator: string;
}

const crews = new Map<string, Promise<StaffCrew>>();

/** Made while the administrator is alone: an operator, an approver, then a second administrator who confirms the approver. */
async function makeCrew(baseUrl: string, adminCookie: string): Promise<StaffCrew> {
  const made = async (role: string) => {
    const email = `${role}-${crypto.randomUUID().slice(0, 8)}@centralbank.test`;
    const created = await send(baseUrl, adminCookie, "POST", "/api/users", { email, roles: [role] });
    if (created.status !== 201) throw new Error(`creating the ${role}: ${created.status} ${JSON.stringify(created.json)}`);
    return { id: created.json.user.id, cookie: await firstSignIn(baseUrl, email, created.json.initialPassword) };
  };
  const operator = await made("operator");
  const approver = await made("approver");
  const secondAdministrator = await made("administrator");
  await confirmRoles(baseUrl, secondAdministrator.cookie, approver.id);
  return { operator: operator.cookie, approver: approver.cookie, secondAdministrator: secondAdministrator.cookie };
}

/**
 * Has `staffCrew` answer `crew` for this server and administrator: staff who exist already (a demo
 * database's, made by its seed) rather than staff the administrator would make.
 */
export function useCrew(baseUrl: string, adminCookie: string, crew: Promise<StaffCrew>) {
  crews.set(`${baseUrl} ${adminCookie}`, crew);
}

/** The crew of a server and its first administrator, made once. */
export function staffCrew(baseUrl: string, adminCookie: string): Promise<StaffCrew> {
  const key = `${baseUrl} ${adminCookie}`;
  let crew = crews.get(key);
  if (!crew) {
    crew = makeCrew(baseUrl, adminCookie);
    crews.set(key, crew);
  }
  return crew;
}

/** An approver's session for a second person's approvals, made once per server and administrator. */
export async function createApproverSession(baseUrl: string, adminCookie: string): Promise<string> {
  return (await staffCrew(baseUrl, adminCookie)).approver;
}

/** The operator's session of the crew: the first administrator does not move money. */
export async function operatorSession(baseUrl: string, adminCookie: string): Promise<string> {
  return (await staffCrew(baseUrl, adminCookie)).operator;
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
  const approved = await approveFiled(baseUrl, await createApproverSession(baseUrl, adminCookie), res.json);
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
