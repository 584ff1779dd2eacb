/**
 * An approver's first sign-in, at a phone size and a desktop size: the sign-in page says an
 * authenticator app is needed; every step names its place ("Step n of 4"); the key beside the QR
 * code is shown in whole groups and copied whole; the recovery codes are whole on their lines,
 * copied and downloaded, and Continue waits for "I have saved these codes"; axe finds nothing.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { TOTP } from "otpauth";
import { AxeBuilder } from "@axe-core/playwright";
import { e2eTest, type TestServer, withBrowser } from "./helpers.ts";

const SIZES = [{ width: 390, height: 844 }, { width: 1440, height: 900 }];
const STEPS = [
  "Sign in with your password",
  "Set up your authenticator app",
  "Save your recovery codes",
  "Choose a new password",
];
const NEW_PASSWORD = "quiet-harbour-lantern-e2e-77";

/** Fails on any axe-core violation at all, of any impact (expectAccessible fails on the serious ones). */
async function expectNoViolations(page: Page, context: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    [],
    context,
  );
}

/** The demo approver's one-time password, from the start log's block of one-time passwords. */
function demoApprover(server: TestServer) {
  const match = server.output().match(/^Demo approver (\S+), one-time password: (\S+)$/m);
  assert.ok(match, server.output());
  return { email: match[1], password: match[2] };
}

/** The step indicator says "Step n of 4" and lists the four steps, the current one marked. */
async function expectStep(page: Page, number: number) {
  const nav = page.getByRole("navigation", { name: "Sign-in steps" });
  await nav.waitFor();
  assert.equal(
    (await nav.getByTestId("sign-in-step-heading").innerText()).trim(),
    `Step ${number} of 4: ${STEPS[number - 1]}`,
  );
  const items = nav.locator("ol > li");
  const labels = (await items.allInnerTexts()).map((text) =>
    text.replace(/^\S+\s+/, "").replace(/\s*\(done\)$/, "").trim()
  );
  assert.deepEqual(labels, STEPS);
  const current = await items.evaluateAll((lis) => lis.map((li) => li.getAttribute("aria-current")));
  assert.deepEqual(current, STEPS.map((_, index) => index === number - 1 ? "step" : null));
}

/** How many lines an element's text takes: one line box per line. */
const lineCount = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    })
  );

async function enrol(page: Page, width: number): Promise<string> {
  await expectStep(page, 2);
  await expectNoViolations(page, "enrolment");
  const groups = await page.getByTestId("totp-secret-group").allInnerTexts();
  const secret = groups.join("");
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.ok(groups.every((group) => group.length === 4), groups.join(" "));
  assert.deepEqual(await lineCount(page, "[data-testid=totp-secret-group]"), groups.map(() => 1));
  const qr = await page.getByTestId("totp-qr").boundingBox();
  const key = await page.getByTestId("totp-secret").boundingBox();
  assert.ok(qr && key);
  // Stacked on a phone, side by side on a desktop; the key never wider than the screen.
  if (width < 640) assert.ok(key.y >= qr.y + qr.height, "the key below the QR code");
  else assert.ok(key.x >= qr.x + qr.width, "the key beside the QR code");
  assert.ok(key.x + key.width <= width);
  await page.getByRole("button", { name: "Copy key" }).click();
  await page.getByText("Copied to the clipboard.").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  const code = new TOTP({ secret, algorithm: "SHA1", digits: 6, period: 30 }).generate();
  await page.getByLabel("Code from the app").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();
  return secret;
}

async function saveRecoveryCodes(page: Page, email: string) {
  await expectStep(page, 3);
  const list = page.getByTestId("recovery-codes").getByRole("listitem");
  const codes = await list.allInnerTexts();
  assert.equal(codes.length, 10);
  assert.ok(codes.every((code) => /^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/.test(code)), codes.join(" "));
  assert.deepEqual(await lineCount(page, "[data-testid=recovery-codes] li"), codes.map(() => 1));
  const proceed = page.getByRole("button", { name: "Continue to the console" });
  assert.equal(await proceed.isDisabled(), true, "Continue waits until the codes are saved");
  await expectNoViolations(page, "recovery codes");

  await page.getByRole("button", { name: "Copy all codes" }).click();
  await page.getByText("Copied to the clipboard.").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), codes.join("\n"));

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download as a text file" }).click(),
  ]);
  const today = new Date().toISOString().slice(0, 10);
  assert.equal(download.suggestedFilename(), `recovery-codes-${email}-${today}.txt`);
  const text = await Deno.readTextFile((await download.path())!);
  assert.match(text, /^Central Bank Registry Console: recovery codes\n/);
  assert.ok(text.includes(`Account: ${email}\n`) && text.includes(`Issued: ${today} (UTC)\n`), text);
  assert.deepEqual(text.trim().split("\n").slice(-10), codes);

  await page.getByLabel("I have saved these codes").check();
  assert.equal(await proceed.isDisabled(), false);
  await proceed.click();
}

for (const size of SIZES) {
  e2eTest(
    `an approver's first sign-in at ${size.width}×${size.height}: four steps, whole key groups, recovery codes kept`,
    () =>
      withBrowser(async ({ page, server }) => {
        await page.setViewportSize(size);
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
          origin: server.baseUrl,
        });
        const approver = demoApprover(server);
        await page.goto(`${server.baseUrl}/api/login`);
        assert.match(
          await page.getByTestId("authenticator-notice").innerText(),
          /authenticator app .*RFC 6238/,
        );
        await expectNoViolations(page, "sign-in page");
        await page.getByLabel("E-mail address").fill(approver.email);
        await page.getByLabel("Password").fill(approver.password);
        await page.getByRole("button", { name: "Sign In" }).click();
        await page.waitForURL(`${server.baseUrl}/api/login/second-factor`);

        await enrol(page, size.width);
        await saveRecoveryCodes(page, approver.email);

        await page.getByRole("heading", { name: "Choose your password" }).waitFor();
        await expectStep(page, 4);
        await expectNoViolations(page, "first password change");
        await page.getByLabel("Current password").fill(approver.password);
        await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
        await page.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
        await page.getByRole("button", { name: "Change password" }).click();
        // On a phone the user's name sits in the closed menu: present, not visible.
        await page.getByTestId("account-menu-button").waitFor();
        assert.equal(await page.getByRole("navigation", { name: "Sign-in steps" }).count(), 0);
      }, { REQUIRE_MFA: "1", SEED_DEMO: "1" }),
  );
}
