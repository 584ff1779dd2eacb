/**
 * The server-rendered sign-in pages: plain forms, so they work before the SPA loads and need no
 * script at all (the CSP allows no inline script). Tailwind scans this file for its classes.
 */
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

function layout(options: PageOptions, title: string, intro: string, body: string): string {
  const stylesheet = options.cssHref ? `<link rel="stylesheet" href="${escapeHtml(options.cssHref)}">` : "";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Central Bank Registry Console</title>
  ${stylesheet}
</head>
<body class="min-h-screen bg-slate-100 text-slate-900 antialiased">
  <main class="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
    <div class="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 class="text-2xl font-semibold text-slate-900">Central Bank Registry</h1>
      <p class="mt-1 text-sm text-slate-600">${escapeHtml(intro)}</p>
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
}

export function renderLoginPage(options: PageOptions & SignInChoices): string {
  const sso = options.ssoProviderName
    ? `<a href="/api/login/oidc" class="mt-6 block ${BUTTON_CLASS} text-center">Sign in with ${
      escapeHtml(options.ssoProviderName)
    }</a>`
    : "";
  const local = options.localForm === false ? "" : passwordForm(Boolean(options.ssoProviderName));
  return layout(options, "Sign in", "Sign in with your central bank credentials.", sso + local);
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

export function renderVerifyPage(options: PageOptions): string {
  return layout(
    options,
    "Second factor",
    "Enter the code your authenticator app shows for the Central Bank Registry.",
    codeForm("Authentication code", "Six digits, or one of your recovery codes.") + signOutForm,
  );
}

export function renderEnrolPage(options: PageOptions & { qrCode: string; secret: string }): string {
  const grouped = options.secret.match(/.{1,4}/g)?.join(" ") ?? options.secret;
  return layout(
    options,
    "Set up a second factor",
    "Your account needs a second factor. Scan this code with an authenticator app, then enter the code it shows.",
    `<img src="${
      escapeHtml(options.qrCode)
    }" alt="QR code for your authenticator app" width="220" height="220" class="mx-auto mt-6">
      <p class="mt-4 text-sm text-slate-800">Or type this key into the app:</p>
      <p class="mt-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900" data-testid="totp-secret">${
      escapeHtml(grouped)
    }</p>` + codeForm("Code from the app", "Six digits; the code changes every 30 seconds.") + signOutForm,
  );
}

export function renderRecoveryCodesPage(options: PageOptions & { codes: string[] }): string {
  return layout(
    options,
    "Recovery codes",
    "Your authenticator is set up. Keep these recovery codes somewhere safe: each one signs you in once if you lose the app. They are shown only now.",
    `<ul class="mt-6 grid grid-cols-2 gap-2 font-mono text-sm text-slate-900" data-testid="recovery-codes">
        ${
      options.codes.map((code) => `<li class="rounded-md bg-slate-100 px-3 py-1">${escapeHtml(code)}</li>`)
        .join("\n        ")
    }
      </ul>
      <a href="/" class="mt-6 block rounded-md bg-blue-800 px-4 py-2 text-center text-sm font-semibold text-white hover:bg-blue-900 focus:outline-none focus:ring-2 focus:ring-blue-700 focus:ring-offset-2">Continue to the console</a>`,
  );
}

/** Signing out takes a POST from this origin; a link from anywhere else only lands here. */
export function renderSignOutPage(options: PageOptions): string {
  return layout(
    options,
    "Sign out",
    "Sign out of the Central Bank Registry Console?",
    `<form method="post" action="/api/logout" class="mt-6">
        <button type="submit" class="${BUTTON_CLASS}">Sign Out</button>
      </form>
      <a href="/" class="mt-4 block text-center text-sm font-medium text-blue-800 underline hover:text-blue-900">Back to the console</a>`,
  );
}
