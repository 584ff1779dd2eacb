import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  cookieSession,
  e2eApprover,
  e2eTest,
  expectAccessible,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

e2eTest(
  "the Directory screen previews the next edition, requests it, and lists it with its files once approved",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      const cookies = await page.context().cookies();
      const operator = cookieSession(
        server.baseUrl,
        cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
      );
      const registered = await operator("POST", "/api/institutions", {
        name: "Harbour Directory Bank",
        type: "commercial",
        registrationNumber: "REG-DIR-0001",
        address: "1 Harbour Road",
        phoneNumber: "+1 555 0100",
        emailAddress: "ops@harbour.test",
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.json));

      await page.goto(`${server.baseUrl}/directory`);
      await page.getByRole("heading", { name: "Directory", level: 1 }).waitFor();
      await page.getByText("No edition published yet").waitFor();
      const changes = page.getByRole("table", { name: "Next edition changes" });
      await changes.getByRole("cell", { name: "REG-DIR-0001" }).waitFor();
      await page.getByText(/Edition 1, the first edition: 1 added, 0 modified, 0 deleted/).waitFor();
      await expectAccessible(page, "directory with a preview");

      await page.getByRole("button", { name: "Prepare edition" }).click();
      const dialog = page.getByRole("dialog", { name: "Prepare edition" });
      await dialog.getByLabel("Reason").fill("First edition of the directory");
      await expectAccessible(page, "prepare edition dialog");
      await dialog.getByRole("button", { name: "Request publication" }).click();
      await page.getByTestId("toast").filter({ hasText: /Submitted for approval/ }).waitFor();
      await dialog.waitFor({ state: "detached" });

      const checker = await e2eApprover(server.baseUrl);
      const queue = await checker("GET", "/api/approvals?status=pending&kind=directory_edition");
      assert.equal(queue.json.length, 1);
      const approved = await checker("POST", `/api/approvals/${queue.json[0].id}/approve`, {
        reason: "Checked",
      });
      assert.equal(approved.status, 200, JSON.stringify(approved.json));

      await page.reload();
      const editions = page.getByRole("table", { name: "Published editions" });
      await editions.getByRole("cell", { name: "1", exact: true }).first().waitFor();
      // The server publishes it in the background: the screen shows it publishing, then its files.
      const link = editions.getByRole("link", { name: "Edition 1 full.csv" });
      await link.waitFor();
      assert.equal(await link.getAttribute("href"), "/api/directory/editions/1/full.csv");
      const download = await page.request.get(`${server.baseUrl}/api/directory/editions/1/full.csv`);
      assert.equal(download.status(), 200);
      const manifest =
        await (await page.request.get(`${server.baseUrl}/api/directory/editions/1/manifest.json`)).json();
      const body = await download.body();
      assert.equal(createHash("sha256").update(body).digest("hex"), manifest.files[0].sha256);
      assert.match(body.toString("utf8"), /REG-DIR-0001/);
      // The preview moves on to the day after edition 1: nothing has changed since.
      await page.getByText(/Edition 2 compared with edition 1 .*: 0 added, 0 modified, 0 deleted/).waitFor();
      await page.getByText("No changes since the last edition.").waitFor();
      await expectAccessible(page, "directory with an edition");
    }),
);
