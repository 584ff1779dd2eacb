/**
 * The header's one "New" menu: every creation the user's roles allow, by the server's own rule table
 * (src/domain/access.ts). Each entry opens the same dialog as the screen's own button, or goes to the
 * screen that holds the form. While changes are paused the menu's button is disabled with the reason.
 */
import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { useSetAtom } from "jotai";
import { ChevronDown, Plus } from "lucide-react";
import { useNavigate } from "react-router";
import { mayCall, ruleFor } from "../../../domain/access.ts";
import type { AuthUser } from "../../lib/auth.ts";
import { type CreateRequest, newInstitutionDialogOpenAtom } from "../../lib/ui_state.ts";
import { Button } from "../ui/button.tsx";
import { HEADER_PANEL, MENU_ITEM } from "./header_panel.ts";

interface CreateAction {
  label: string;
  /** The route the creation goes through: its role rule decides who sees the entry. */
  api: readonly [string, string];
  /** Where the entry leads: the app-wide dialog, or a screen (with the dialog it should open). */
  target: "institution-dialog" | { path: string; create?: CreateRequest };
}

const CREATE_ACTIONS: readonly CreateAction[] = [
  { label: "New Institution", api: ["POST", "/api/institutions"], target: "institution-dialog" },
  {
    label: "New Connection",
    api: ["POST", "/api/central-bank-connections"],
    target: { path: "/central-bank-connections", create: "connection" },
  },
  { label: "Manual Sweep", api: ["POST", "/api/balance-sweeps"], target: { path: "/balance-sweep", create: "manual-sweep" } },
  { label: "Add Account", api: ["POST", "/api/ledger-accounts"], target: { path: "/balance-sweep", create: "account" } },
  { label: "Issue Card", api: ["POST", "/api/cards/issue"], target: { path: "/card-management#issue" } },
  { label: "New API Key", api: ["POST", "/api/api-keys"], target: { path: "/api-management#keys" } },
];

export function NewMenu({ user }: { user: AuthUser | undefined }) {
  const openNewInstitution = useSetAtom(newInstitutionDialogOpenAtom);
  const navigate = useNavigate();
  const roles = user?.roles ?? [];
  const actions = CREATE_ACTIONS.filter(({ api }) => {
    const rule = ruleFor(api[0], api[1]);
    return rule !== undefined && mayCall(rule, roles);
  });
  if (actions.length === 0) return null;
  const run = ({ target }: CreateAction) => {
    if (target === "institution-dialog") openNewInstitution(true);
    else navigate(target.path, { state: target.create ? { create: target.create } : null });
  };
  return (
    <Menu as="div" className="relative">
      {/* On a phone the plus sign alone, so that the screen's name keeps room in the header. */}
      <MenuButton as={Button} changes className="max-sm:w-9 max-sm:px-0" data-testid="new-menu-button">
        <Plus aria-hidden="true" className="h-4 w-4" />
        <span className="max-sm:sr-only">New</span>
        <ChevronDown aria-hidden="true" className="h-4 w-4 max-sm:hidden" />
      </MenuButton>
      <MenuItems className={`${HEADER_PANEL} w-56 py-1`}>
        {actions.map((action) => (
          <MenuItem key={action.label}>
            <button type="button" className={MENU_ITEM} onClick={() => run(action)}>{action.label}</button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
