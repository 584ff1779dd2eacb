/**
 * The server-rendered sign-in pages: plain forms, so they work before the SPA loads and need no
 * script at all (the CSP allows no inline script). The bundled sign-in script (src/web/sign_in_pages.ts)
 * only adds the copy buttons and holds Continue until the recovery codes are saved.
 * Tailwind scans this file for its classes.
 */
import { type SignInStep, type SignInStepId, stepHeading } from "../../domain/first_sign_in.ts";

const MESSAGES: Record<string, string> = {
  invalid: "The e-mail address or password is not correct.",
  code: "That code is not correct, or it was already used. Wait for the next code and try again.",
  local: "Password sign-in is reserved for break-glass administrators. Use single sign-on.",
  codes: "Too many wrong codes. Sign in with your password again.",
};

const INPUT_CLASS =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-blue-700 focus:outline-none focus:ring-2 focus:ring-blue-700";
const BUTTON_CLASS =
  "w-full rounded-md bg-blue-800 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-900 focus:outline-none focus:ring-2 focus:ring-blue-700 focus:ring-offset-2";

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

export interface PageOptions {
  cssHref: string | null;
  /** A key of MESSAGES, or null. */
  error?: string | null;
  /** Seconds to wait before the next attempt, when the answer is a 429. */
  retryAfterSeconds?: number | null;
  /** A message of its own (already chosen for the user), when no key of MESSAGES fits. */
  message?: string | null;
  /** The bundled sign-in page script (copy buttons, the recovery codes' confirmation), when built. */
  scriptSrc?: string | null;
}

/** Where the page stands in a sign-in of several steps (src/domain/first_sign_in.ts). */
interface StepPosition {
  steps: readonly SignInStep[];
  current: SignInStepId;
}

/** "Step n of N" and the whole list, the current step marked for assistive technology. */
function stepIndicator(position: StepPosition | undefined): string {
  const heading = position ? stepHeading(position.steps, position.current) : null;
  if (!position || !heading) return "";
  const currentIndex = position.steps.findIndex((step) => step.id === position.current);
  const items = position.steps.map((step, index) => {
    const state = index < currentIndex ? "done" : index === currentIndex ? "current" : "next";
    const mark = state === "done" ? "✓" : String(index + 1);
    return `<li class="flex items-baseline gap-2${state === "current" ? " font-semibold text-slate-900" : ""}"${
      state === "current" ? ' aria-current="step"' : ""
    }><span aria-hidden="true" class="w-4 shrink-0 text-center">${mark}</span><span>${escapeHtml(step.label)}${
      state === "done" ? '<span class="sr-only"> (done)</span>' : ""
    }</span></li>`;
  }).join("");
  return `<nav aria-label="Sign-in steps" class="mt-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2" data-testid="sign-in-steps">
        <p class="text-sm font-semibold text-blue-900" data-testid="sign-in-step-heading">${escapeHtml(heading)}</p>
        <ol class="mt-1 space-y-0.5 text-xs text-slate-700">${items}</ol>
      </nav>`;
}

function alertFor(options: PageOptions): string {
  const message = options.message
    ? options.message
    : options.retryAfterSeconds
    ? `Too many failed sign-in attempts. Try again in ${options.retryAfterSeconds} seconds.`
    : options.error
    ? MESSAGES[options.error] ?? null
    : null;
  return message
    ? `<p role="alert" class="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">${
      escapeHtml(message)
    }</p>`
    : "";
}

interface Frame {
  title: string;
  intro: string;
  body: string;
  steps?: StepPosition;
  /** A wider card, for the enrolment's QR code beside its key. */
  wide?: boolean;
  /** The page has copy buttons or a confirmation for the sign-in script; other pages carry no script. */
  scripted?: boolean;
}

function layout(options: PageOptions, frame: Frame): string {
  const { title, intro, body } = frame;
  const stylesheet = options.cssHref ? `<link rel="stylesheet" href="${escapeHtml(options.cssHref)}">` : "";
  const script = frame.scripted && options.scriptSrc ? `<script type="module" src="${escapeHtml(options.scriptSrc)}"></script>` : "";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Central Bank Registry Console</title>
  ${stylesheet}
  ${script}
</head>
<body class="min-h-screen bg-slate-100 text-slate-900 antialiased">
  <main class="mx-auto flex min-h-screen ${
    frame.wide ? "max-w-2xl" : "max-w-md"
  } flex-col justify-center px-6">
    <div class="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 class="text-2xl font-semibold text-slate-900">Central Bank Registry</h1>
      ${stepIndicator(frame.steps)}
      <p class="mt-3 text-sm text-slate-600">${escapeHtml(intro)}</p>
      ${alertFor(options)}
      ${body}
      <p class="mt-6 text-xs text-slate-600">Access is restricted to authorized central bank personnel and supervised financial institutions.</p>
    </div>
  </main>
</body>
</html>`;
}

export interface SignInChoices {
  /** The identity provider's name when single sign-on is configured. */
  ssoProviderName?: string | null;
  /** Whether the password form is offered (always without single sign-on; break-glass with it). */
  localForm?: boolean;
  /** Who needs an authenticator app to sign in with a password: nobody (REQUIRE_MFA=0), some roles, or everyone. */
  authenticatorNeeded?: "none" | "some" | "all";
}

const AUTHENTICATOR_NOTICES = {
  some:
    "Administrators and approvers also need an authenticator app (any TOTP app, RFC 6238, on a phone or computer): " +
    "the first sign-in sets it up with a QR code.",
  all:
    "You also need an authenticator app (any TOTP app, RFC 6238, on a phone or computer): " +
    "the first sign-in sets it up with a QR code.",
} as const;

export function renderLoginPage(options: PageOptions & SignInChoices): string {
  const sso = options.ssoProviderName
    ? `<a href="/api/login/oidc" class="mt-6 block ${BUTTON_CLASS} text-center">Sign in with ${
      escapeHtml(options.ssoProviderName)
    }</a>`
    : "";
  const needed = options.authenticatorNeeded ?? "none";
  const notice = options.localForm !== false && needed !== "none"
    ? `<p class="mt-4 rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900" data-testid="authenticator-notice">${
      escapeHtml(AUTHENTICATOR_NOTICES[needed])
    }</p>`
    : "";
  const local = options.localForm === false ? "" : passwordForm(Boolean(options.ssoProviderName));
  return layout(options, {
    title: "Sign in",
    intro: "Sign in with your central bank credentials.",
    body: sso + notice + local,
  });
}

function passwordForm(breakGlass: boolean): string {
  const heading = breakGlass
    ? `<h2 class="mt-8 text-sm font-semibold text-slate-800">Break-glass administrator sign-in</h2>`
    : "";
  return `${heading}<form method="post" action="/api/login" class="${breakGlass ? "mt-2" : "mt-6"} space-y-4">
        <div>
          <label for="email" class="block text-sm font-medium text-slate-800">E-mail address</label>
          <input id="email" name="email" type="email" autocomplete="username" required maxlength="255" class="${INPUT_CLASS}">
        </div>
        <div>
          <label for="password" class="block text-sm font-medium text-slate-800">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256" class="${INPUT_CLASS}">
        </div>
        <button type="submit" class="${BUTTON_CLASS}">Sign In</button>
      </form>`;
}

const codeForm = (label: string, hint: string) =>
  `<form method="post" action="/api/login/second-factor" class="mt-6 space-y-4">
        <div>
          <label for="otp" class="block text-sm font-medium text-slate-800">${escapeHtml(label)}</label>
          <input id="otp" name="otp" type="text" autocomplete="one-time-code" required maxlength="19" class="${INPUT_CLASS}">
          <p class="mt-1 text-xs text-slate-600">${escapeHtml(hint)}</p>
        </div>
        <button type="submit" class="${BUTTON_CLASS}">Continue</button>
      </form>`;

const signOutForm = `<form method="post" action="/api/logout" class="mt-4">
        <button type="submit" class="text-sm font-medium text-blue-800 underline hover:text-blue-900">Cancel and sign out</button>
      </form>`;

const SECONDARY_BUTTON_CLASS =
  "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus:ring-2 focus:ring-blue-700 focus:ring-offset-2";

/**
 * A copy button for the text of the element `targetId`; hidden until the sign-in script shows it
 * (without script there is nothing it could do). The status line says when the text was copied.
 */
const copyButton = (targetId: string, label: string) =>
  `<button type="button" hidden data-copy-target="${targetId}" class="${SECONDARY_BUTTON_CLASS}">${
    escapeHtml(label)
  }</button>`;

const copyStatus = `<p role="status" aria-live="polite" class="mt-1 min-h-5 text-xs text-slate-700" data-copy-status></p>`;

export function renderVerifyPage(options: PageOptions & { steps?: StepPosition }): string {
  return layout(options, {
    title: "Second factor",
    intro: "Enter the code your authenticator app shows for the Central Bank Registry.",
    body: codeForm("Authentication code", "Six digits, or one of your recovery codes.") + signOutForm,
    steps: options.steps,
  });
}

/** Four characters a group, each group one unit that never breaks; lines wrap only between groups. */
const KEY_GROUP_LENGTH = 4;

function keyGroups(secret: string): string {
  const groups = secret.match(new RegExp(`.{1,${KEY_GROUP_LENGTH}}`, "g")) ?? [secret];
  return groups.map((group) =>
    `<span class="inline-block whitespace-nowrap" data-testid="totp-secret-group">${escapeHtml(group)}</span>`
  ).join(" ");
}

export function renderEnrolPage(options: PageOptions & { qrCode: string; secret: string; steps?: StepPosition }): string {
  const key = `<div class="min-w-0 flex-1">
          <p class="text-sm text-slate-800">Or type this key into the app (letters and digits; the spaces only help reading):</p>
          <p id="totp-secret" class="mt-1 rounded-md bg-slate-100 px-3 py-2 font-mono text-base leading-relaxed tracking-wide text-slate-900" data-testid="totp-secret">${
    keyGroups(options.secret)
  }</p>
          <div class="mt-2">${copyButton("totp-secret", "Copy key")}</div>
          ${copyStatus}
          <p class="mt-2 text-xs text-slate-600">Choose a time-based (TOTP) key if the app asks; the code has six digits and changes every 30 seconds.</p>
        </div>`;
  return layout(options, {
    title: "Set up a second factor",
    intro:
      "Your account needs a second factor. Scan this QR code with an authenticator app (any TOTP app, RFC 6238), then enter the code it shows.",
    body: `<div class="mt-6 flex flex-col items-center gap-6 sm:flex-row sm:items-start" data-testid="enrolment">
        <img src="${
      escapeHtml(options.qrCode)
    }" alt="QR code for your authenticator app" width="220" height="220" class="shrink-0" data-testid="totp-qr">
        ${key}
      </div>` + codeForm("Code from the app", "Six digits; the code changes every 30 seconds.") + signOutForm,
    steps: options.steps,
    wide: true,
    scripted: true,
  });
}

interface RecoveryCodesFile {
  /** Where the console was reached, so that a saved file names the installation it belongs to. */
  consoleAddress: string;
  email: string;
  /** The day the codes were issued, YYYY-MM-DD (UTC). */
  date: string;
}

const CONSOLE_NAME = "Central Bank Registry Console";

/** The downloadable text of the recovery codes: the console, the account, the date, then one code a line. */
function recoveryCodesText(codes: readonly string[], file: RecoveryCodesFile): string {
  return [
    `${CONSOLE_NAME}: recovery codes`,
    `Console: ${file.consoleAddress}`,
    `Account: ${file.email}`,
    `Issued: ${file.date} (UTC)`,
    "",
    "Each code signs you in once, in place of the code from your authenticator app.",
    "Keep this file somewhere safe and apart from your password.",
    "",
    ...codes,
    "",
  ].join("\n");
}

const recoveryCodesFileName = (file: RecoveryCodesFile) =>
  `recovery-codes-${file.email.replace(/[^A-Za-z0-9.@_-]/g, "_")}-${file.date}.txt`;

export function renderRecoveryCodesPage(
  options: PageOptions & { codes: string[]; file: RecoveryCodesFile; steps?: StepPosition },
): string {
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesText(options.codes, options.file))}`;
  return layout(options, {
    title: "Recovery codes",
    intro:
      "Your authenticator is set up. Keep these recovery codes somewhere safe: each one signs you in once if you lose the app. They are shown only now.",
    body: `<ul id="recovery-codes" class="mt-6 grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-2 font-mono text-sm text-slate-900" data-testid="recovery-codes">
        ${
      options.codes.map((code) =>
        `<li class="whitespace-nowrap rounded-md bg-slate-100 px-3 py-1 text-center">${escapeHtml(code)}</li>`
      ).join("\n        ")
    }
      </ul>
      <div class="mt-4 flex flex-wrap gap-2">
        ${copyButton("recovery-codes", "Copy all codes")}
        <a href="${download}" download="${escapeHtml(recoveryCodesFileName(options.file))}" class="${SECONDARY_BUTTON_CLASS}">Download as a text file</a>
      </div>
      ${copyStatus}
      <form method="get" action="/" class="mt-4 space-y-4" data-saved-confirmation>
        <div class="flex items-start gap-2">
          <input id="codes-saved" type="checkbox" required class="mt-0.5 h-4 w-4 rounded border-slate-400">
          <label for="codes-saved" class="text-sm text-slate-800">I have saved these codes</label>
        </div>
        <button type="submit" class="${BUTTON_CLASS} disabled:cursor-not-allowed disabled:bg-slate-400">Continue to the console</button>
      </form>`,
    steps: options.steps,
    scripted: true,
  });
}

/** Signing out takes a POST from this origin; a link from anywhere else only lands here. */
export function renderSignOutPage(options: PageOptions): string {
  return layout(options, {
    title: "Sign out",
    intro: "Sign out of the Central Bank Registry Console?",
    body: `<form method="post" action="/api/logout" class="mt-6">
        <button type="submit" class="${BUTTON_CLASS}">Sign Out</button>
      </form>
      <a href="/" class="mt-4 block text-center text-sm font-medium text-blue-800 underline hover:text-blue-900">Back to the console</a>`,
  });
}
