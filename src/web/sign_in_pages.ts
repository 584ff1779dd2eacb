/**
 * The server-rendered sign-in pages' only script (src/server/auth/login_page.ts), bundled apart from
 * the console: it shows the copy buttons, and holds the recovery codes' Continue until the user says
 * the codes are saved. The pages work without it (the checkbox is required by the form itself).
 */

/** The text a copy button takes: a list's items one a line, or a key without its reading spaces. */
function copiedText(target: HTMLElement): string {
  const items = [...target.querySelectorAll("li")];
  if (items.length > 0) return items.map((item) => item.textContent?.trim() ?? "").join("\n");
  return (target.textContent ?? "").replace(/\s+/g, "");
}

function wireCopyButtons(): void {
  const status = document.querySelector<HTMLElement>("[data-copy-status]");
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy-target]")) {
    const target = document.getElementById(button.dataset.copyTarget ?? "");
    if (!target || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(copiedText(target));
        if (status) status.textContent = "Copied to the clipboard.";
      } catch {
        if (status) {
          status.textContent = "The browser did not allow copying; select the text and copy it instead.";
        }
      }
    });
  }
}

function holdContinueUntilSaved(): void {
  const form = document.querySelector<HTMLFormElement>("form[data-saved-confirmation]");
  const checkbox = form?.querySelector<HTMLInputElement>("input[type=checkbox]");
  const submit = form?.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!checkbox || !submit) return;
  const update = () => submit.disabled = !checkbox.checked;
  checkbox.addEventListener("change", update);
  update();
}

wireCopyButtons();
holdContinueUntilSaved();
