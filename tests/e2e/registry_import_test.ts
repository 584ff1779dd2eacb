import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { formatRoutingCode } from "../../src/domain/routing_code.ts";
import { codeRecord, directoryFile, institutionRecord } from "../helpers/directory_import.ts";
import { approveFiled } from "../helpers/http_staff.ts";
import {
  e2eCrew,
  e2eTest,
  expectAccessible,
  readAndDismissToast,
  signInAsOperator,
  withBrowser,
} from "./helpers.ts";

const upload = (name: string, text: string) => ({
  name,
  mimeType: "text/csv",
  buffer: Buffer.from(text, "utf-8"),
});

e2eTest(
  "Registry Import: a small file's dry-run report, its errors by line, its submission for approval, then applied",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/directory/import`);
      await page.getByRole("heading", { name: "Registry Import", level: 1 }).waitFor();
      await page.getByText("No imports yet").waitFor();

      const owner = "E2E-IMPORT-1";
      const broken = directoryFile([
        institutionRecord(owner),
        codeRecord("RTC", formatRoutingCode("EIM", 1), owner),
        codeRecord("BIC", "EIMPDEFF", "NOBODY"),
      ]);
      const file = page.getByLabel("Directory file (CSV)");
      await file.setInputFiles(upload("broken.csv", broken));
      const report = page.getByRole("region", { name: "Dry-run report" });
      await report.getByText("broken.csv: 3 records, 1 errors").waitFor();
      const errors = page.getByRole("table", { name: "Lines in error" });
      const row = errors.locator("tbody tr").first();
      assert.deepEqual(await row.locator("td").allInnerTexts(), [
        "4",
        "institution_key",
        "No institution NOBODY in the file or the registry",
      ]);
      assert.equal(
        await page.getByRole("button", { name: "Submit for approval" }).count(),
        0,
        "a file with errors cannot be submitted",
      );

      const good = directoryFile([
        institutionRecord(owner),
        codeRecord("RTC", formatRoutingCode("EIM", 1), owner),
        codeRecord("BIC", "EIMPDEFF", owner),
      ]);
      await file.setInputFiles(upload("good.csv", good));
      await report.getByText("good.csv: 3 records, no errors").waitFor();
      const counts = page.getByRole("table", { name: "Counts by record type" });
      assert.deepEqual(await counts.locator("tbody tr").first().locator("td").allInnerTexts(), [
        "Institutions",
        "1",
        "0",
        "1",
        "0",
        "0",
      ]);
      await page.getByRole("table", { name: "What would change" }).getByText(`INST ${owner}`).waitFor();
      await expectAccessible(page, "/directory/import with a dry-run report");

      await page.getByLabel("Reason for approval").fill("Load the first institution");
      await page.getByRole("button", { name: "Submit for approval" }).click();
      assert.match(await readAndDismissToast(page), /Submitted for approval/);
      const imports = page.getByRole("table", { name: "Imports" });
      await imports.getByText("Waiting for approval").waitFor();

      // A second person approves; the approval queues it, and the server's applier applies it whole.
      const { approver } = await e2eCrew(server.baseUrl);
      const listed = await fetch(`${server.baseUrl}/api/directory/imports`, {
        headers: { cookie: approver },
      });
      const submitted = (await listed.json() as { fileName: string; approvalRequestId: string }[])
        .find((item) => item.fileName === "good.csv")!;
      const approved = await approveFiled(server.baseUrl, approver, {
        approvalRequest: { id: submitted.approvalRequestId },
      });
      assert.equal(approved.status, 200, JSON.stringify(approved.json));
      await page.reload();
      await imports.locator("tbody").getByText("Applied", { exact: true }).waitFor();
      assert.equal(await imports.getByText("Waiting for approval").count(), 0);
    }),
);
