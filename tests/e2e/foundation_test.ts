import assert from "node:assert/strict";
import { NAV_ITEMS } from "../../src/web/components/layout/nav_items.ts";
import { accountLabels, chooseSignOut, e2eTest, expectAccessible, signIn, withBrowser } from "./helpers.ts";

e2eTest("landing shows the spec's texts and both buttons lead to /api/login", () =>
  withBrowser(async ({ page, server }) => {
    await page.goto(server.baseUrl);
    await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
    for (const text of ["Secure Central Banking Operations", "Access Required"]) {
      await page.getByRole("heading", { name: text }).waitFor();
    }
    assert.match(await page.locator("footer").innerText(), /2024/);
    await expectAccessible(page, "landing");
    await page.getByRole("button", { name: "Authenticate with Central Bank Credentials" }).click();
    await page.waitForURL(`${server.baseUrl}/api/login`);
    await page.goto(server.baseUrl);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(`${server.baseUrl}/api/login`);
    await expectAccessible(page, "sign-in page");
  }));

e2eTest("signing in shows the shell with the user label, and every sidebar route renders", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    assert.deepEqual(await accountLabels(page), { user: "operator@centralbank.test", role: "Central Bank Admin" });
    for (const item of NAV_ITEMS) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: item.label, exact: true }).click();
      await page.waitForURL(`${server.baseUrl}${item.path}`);
      await page.locator("main h1").first().waitFor();
      await expectAccessible(page, item.path);
    }
  }));

e2eTest("an unknown path shows the 404 screen", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/no-such-screen`);
    await page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
    await page.getByText("Did you forget to add the page to the router?").waitFor();
  }));

e2eTest("a deleted session sends the user back to sign-in with the unauthorized toast", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    const cookies = await page.context().cookies();
    await page.context().clearCookies();
    await page.context().addCookies(cookies.map((cookie) => ({ ...cookie, value: "revoked-session-token" })));
    await page.getByRole("link", { name: "Routing Codes", exact: true }).click();
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    assert.match(await toast.innerText(), /Unauthorized[\s\S]*You are logged out\. Logging in again\.\.\./);
    await page.waitForURL(`${server.baseUrl}/api/login`);
  }));

e2eTest("sign out returns to the landing screen", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    await chooseSignOut(page);
    await page.getByRole("heading", { name: "National Payment Infrastructure Management" }).waitFor();
    const res = await page.request.get(`${server.baseUrl}/api/auth/user`);
    assert.equal(res.status(), 401);
  }));

e2eTest("toasts: one at a time, F8 focuses the notification region, a swipe right past 50 px dismisses", () =>
  withBrowser(async ({ page, server }) => {
    await signIn(page, server.baseUrl);
    const lookup = page.getByRole("search", { name: "Code lookup" });
    await lookup.getByRole("button").click();
    await page.getByTestId("toast").waitFor();
    await lookup.getByRole("button").click();
    assert.equal(await page.getByTestId("toast").count(), 1);

    await page.keyboard.press("F8");
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "Notifications (F8)",
    );

    const box = (await page.getByTestId("toast").boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 45, y, { steps: 3 });
    await page.mouse.up();
    assert.equal(await page.getByTestId("toast").count(), 1, "a 25 px swipe keeps the toast");
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 90, y, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId("toast").waitFor({ state: "detached" });
  }));
