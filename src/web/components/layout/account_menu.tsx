/**
 * The signed-in user, at the header's right end: an initials avatar that opens a menu (Headless UI)
 * with the user's name and role label, the password change and signing out. The password dialog
 * loads on its first opening, so the initial bundle stays small.
 */
import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { lazy, Suspense, useRef, useState } from "react";
import { roleLabel } from "../../../domain/access.ts";
import { type AuthUser, userLabel } from "../../lib/auth.ts";
import { useChangesPaused } from "../../lib/changes_paused.ts";
import { HEADER_PANEL, MENU_ITEM } from "./header_panel.ts";

const ChangePasswordDialog = lazy(() => import("./change_password.tsx"));

/** "AB" for Ada Byron, "O" for operator@centralbank.test: what the avatar shows. */
function initials(user: Pick<AuthUser, "firstName" | "lastName" | "email"> | undefined): string {
  const names = [user?.firstName, user?.lastName].filter((name): name is string => Boolean(name?.trim()));
  const letters = names.length > 0 ? names.map((name) => name.trim()[0]) : [user?.email?.[0] ?? "?"];
  return letters.join("").toUpperCase();
}

export function AccountMenu({ user }: { user: AuthUser | undefined }) {
  const [passwordOpen, setPasswordOpen] = useState(false);
  // Mounted from the first open on, so closing and reopening need no second load.
  const [passwordWanted, setPasswordWanted] = useState(false);
  const paused = useChangesPaused();
  const signOutForm = useRef<HTMLFormElement>(null);
  const name = userLabel(user);
  return (
    <>
      <Menu as="div" className="relative">
        <MenuButton
          className="flex h-9 w-9 items-center justify-center rounded-full bg-blue-800 text-sm font-semibold text-white hover:bg-blue-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 focus-visible:ring-offset-2"
          aria-label={`Account: ${name}`}
          data-testid="account-menu-button"
        >
          <span aria-hidden="true">{initials(user)}</span>
        </MenuButton>
        <MenuItems
          className={`${HEADER_PANEL} w-64 py-1`}
          data-testid="account-menu"
        >
          <div className="border-b border-slate-200 px-4 py-3">
            <p className="truncate text-sm font-medium text-slate-900" data-testid="user-label">{name}</p>
            <p className="text-xs text-slate-600" data-testid="role-label">{roleLabel(user?.roles ?? [])}</p>
          </div>
          <MenuItem disabled={paused !== null}>
            <button
              type="button"
              className={MENU_ITEM}
              disabled={paused !== null}
              title={paused ?? undefined}
              onClick={() => {
                setPasswordWanted(true);
                setPasswordOpen(true);
              }}
            >
              Change password
            </button>
          </MenuItem>
          <MenuItem>
            <button type="button" className={MENU_ITEM} onClick={() => signOutForm.current?.submit()}>Sign Out</button>
          </MenuItem>
        </MenuItems>
      </Menu>
      {/* A POST from this origin: a link elsewhere cannot sign the user out. Outside the menu, which
          closes (and leaves the page) as the entry is clicked. */}
      <form ref={signOutForm} method="post" action="/api/logout" noValidate hidden />
      {passwordWanted && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
