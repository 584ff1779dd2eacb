/** Issue 23: forms check the server's rules in the browser and show errors inline, in one style. */
import assert from "node:assert/strict";
import { e2eTest, signInAsOperator, withBrowser } from "./helpers.ts";

e2eTest(
  "distribute card: a missing name and a bad e-mail are inline errors that clear as the user fixes them",
  () =>
    withBrowser(async ({ page, server }) => {
      await signInAsOperator(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/card-management`);
      await page.getByRole("tab", { name: "Distribute Card" }).click();
      const email = page.getByLabel("Recipient Email");
      await email.fill("not-an-email");
      await page.getByRole("button", { name: "Distribute Card" }).click();
      await page.getByText("Required", { exact: true }).waitFor();
      await page.getByText("Enter a valid e-mail address").waitFor();
      assert.equal(await email.getAttribute("aria-invalid"), "true");
      assert.equal(await page.getByTestId("toast").count(), 0, "nothing was sent");

      await email.fill("grace@navy.test");
      await page.getByText("Enter a valid e-mail address").waitFor({ state: "detached" });
      await page.getByLabel("Recipient Name").fill("Grace Hopper");
      await page.getByText("Required", { exact: true }).waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Distribute Card" }).click();
      await page.getByTestId("toast").filter({ hasText: "Card Distributed" }).waitFor();
    }),
);
