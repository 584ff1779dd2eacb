/**
 * The server-rendered sign-in page: a plain form, so it works before the SPA loads and needs no
 * script at all (the CSP allows no inline script). Tailwind scans this file for its classes.
 */
const MESSAGES: Record<string, string> = {
  invalid: "The e-mail address or password is not correct.",
  locked: "Too many failed sign-in attempts. Try again in a few minutes.",
};

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

export function renderLoginPage(options: { cssHref: string | null; error: string | null }): string {
  const message = options.error ? MESSAGES[options.error] ?? null : null;
  const stylesheet = options.cssHref ? `<link rel="stylesheet" href="${escapeHtml(options.cssHref)}">` : "";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign in · Central Bank Registry Console</title>
  ${stylesheet}
</head>
<body class="min-h-screen bg-slate-100 text-slate-900 antialiased">
  <main class="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6">
    <div class="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
      <h1 class="text-2xl font-semibold text-slate-900">Central Bank Registry</h1>
      <p class="mt-1 text-sm text-slate-600">Sign in with your central bank credentials.</p>
      ${
    message
      ? `<p role="alert" class="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">${
        escapeHtml(message)
      }</p>`
      : ""
  }
      <form method="post" action="/api/login" class="mt-6 space-y-4">
        <div>
          <label for="email" class="block text-sm font-medium text-slate-800">E-mail address</label>
          <input id="email" name="email" type="email" autocomplete="username" required maxlength="255"
            class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-blue-700 focus:outline-none focus:ring-2 focus:ring-blue-700">
        </div>
        <div>
          <label for="password" class="block text-sm font-medium text-slate-800">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"
            class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-blue-700 focus:outline-none focus:ring-2 focus:ring-blue-700">
        </div>
        <button type="submit"
          class="w-full rounded-md bg-blue-800 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-900 focus:outline-none focus:ring-2 focus:ring-blue-700 focus:ring-offset-2">
          Sign In
        </button>
      </form>
      <p class="mt-6 text-xs text-slate-600">Access is restricted to authorized central bank personnel and supervised financial institutions.</p>
    </div>
  </main>
</body>
</html>`;
}
