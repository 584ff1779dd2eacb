/**
 * Institutions over time on the institution page: an operator asks in the Edit details dialog for
 * a new name from tomorrow; once a second person approves, the page shows the change still to come
 * beside the current name, and the history names who requested and who approved it.
 */
import assert from "node:assert/strict";
import {
  apiSession,
  E2E_OPERATOR_PASSWORD,
  e2eApprover,
  e2eOperator,
  e2eTest,
  expectAccessible,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

const NAME = "Calendar Commercial Bank";
const NEW_NAME = "Calendar Merchant Bank";
const LEI = "7LTWFZYICNSX8D621K86";

e2eTest("a scheduled change shows on the institution page beside the current state, and in its history", () =>
  withBrowser(async ({ page, server }) => {
    const operator = await apiSession(server.baseUrl, await e2eOperator(server.baseUrl), E2E_OPERATOR_PASSWORD);
    const created = await operator("POST", "/api/institutions", {
      name: NAME,
      type: "commercial",
      registrationNumber: "SCHED-001",
      address: "1 Calendar Street",
      phoneNumber: "+1 202 555 0150",
      emailAddress: "ops@calendar.example",
      lei: LEI,
    });
    assert.equal(created.status, 201);
    const { id } = created.json;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

    await signInAsOperator(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/institutions/${id}`);
    await page.getByText(LEI).waitFor();
    await page.getByRole("button", { name: "Edit details" }).click();
    const dialog = page.getByRole("dialog", { name: `Edit details of ${NAME}` });
    await dialog.getByLabel("Institution Name").fill(NEW_NAME);
    await dialog.getByLabel("Effective From").fill(tomorrow);
    await dialog.getByLabel("Reason").fill("Renamed after the merger");
    await dialog.getByRole("button", { name: "Submit for approval" }).click();
    await dialog.waitFor({ state: "hidden" });

    const approver = await e2eApprover(server.baseUrl);
    const pending = await approver("GET", "/api/approvals?status=pending&kind=institution_change");
    assert.equal(pending.status, 200);
    const [request] = pending.json;
    assert.equal(request.kind, "institution_change");
    assert.equal((await approver("POST", `/api/approvals/${request.id}/approve`, { reason: "Checked" })).status, 200);

    await page.reload();
    await page.getByRole("heading", { name: NAME }).first().waitFor();
    const toCome = page.getByRole("list", { name: "Changes to come, soonest first" });
    await toCome.getByText(`From ${tomorrow}:`).waitFor();
    assert.match(await toCome.innerText(), new RegExp(`name → ${NEW_NAME}`));
    const versions = page.getByRole("list", { name: "Versions, newest first" });
    await versions.getByText(`name → ${NEW_NAME}`).waitFor();
    assert.match(await versions.innerText(), /Approved by/);
    await expectAccessible(page, "/institutions/:id with a change to come");
  }));

e2eTest("a termination with a successor for the institution and for its routing code is requested in its dialog and shows as a change to come", () =>
  withBrowser(async ({ page, server }) => {
    const operator = await apiSession(server.baseUrl, await e2eOperator(server.baseUrl), E2E_OPERATOR_PASSWORD);
    const register = async (name: string, registrationNumber: string) => {
      const created = await operator("POST", "/api/institutions", {
        name,
        type: "savings",
        registrationNumber,
        address: "2 Closing Lane",
        phoneNumber: "+1 202 555 0160",
        emailAddress: `ops@${registrationNumber.toLowerCase()}.example`,
      });
      assert.equal(created.status, 201);
      return created.json.id as string;
    };
    const id = await register("Closing Savings Bank", "CLOSE-001");
    const heir = await register("Heir Savings Bank", "HEIR-001");
    const assign = async (institutionId: string, prefix: string) => {
      const assigned = await operator("POST", "/api/routing-codes", {
        institutionId,
        prefix,
        branchCode: "001",
        description: "Head office clearing",
      });
      assert.equal(assigned.status, 201, JSON.stringify(assigned.json));
      return assigned.json.code as string;
    };
    const closingCode = await assign(id, "CLO");
    const heirCode = await assign(heir, "HEI");
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

    await signInAsOperator(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/institutions/${id}`);
    await page.getByRole("button", { name: "Terminate Closing Savings Bank" }).click();
    const dialog = page.getByRole("dialog", { name: "Terminate Closing Savings Bank?" });
    await dialog.getByLabel("Effective From").fill(inAWeek);
    await dialog.getByLabel("Successor", { exact: true }).selectOption({ label: "Heir Savings Bank" });
    await dialog.getByLabel(`Successor of ${closingCode}`).fill(heirCode);
    await dialog.getByLabel("Reason").fill("Merged into Heir Savings Bank");
    await dialog.getByRole("button", { name: "Submit for approval" }).click();
    await dialog.waitFor({ state: "hidden" });

    const approver = await e2eApprover(server.baseUrl);
    const [request] = (await approver("GET", "/api/approvals?status=pending&kind=institution_status")).json;
    assert.equal((await approver("POST", `/api/approvals/${request.id}/approve`, { reason: "Checked" })).status, 200);

    await page.reload();
    const toCome = page.getByRole("list", { name: "Changes to come, soonest first" });
    await toCome.getByText(`From ${inAWeek}:`).waitFor();
    assert.match(await toCome.innerText(), /terminated; successor Heir Savings Bank/);
    await page.getByText("Deletion announced", { exact: true }).waitFor();
    // The institution's routing code ends with it, succeeded by the code named in the dialog.
    const history = await operator("GET", `/api/routing-codes/${encodeURIComponent(closingCode)}/history`);
    assert.equal(history.status, 200);
    assert.match(JSON.stringify(history.json), new RegExp(`successor ${heirCode}`));
  }));
