/**
 * Below 1024 px: the sidebar's content in a slide-over (Headless UI), opened by the header's menu
 * button. Loaded on first open, so the dialog library stays out of the initial bundle.
 */
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { X } from "lucide-react";
import type { AuthUser } from "../../lib/auth.ts";
import { Brand, SidebarContent } from "./sidebar.tsx";

export default function MobileSidebar(
  { user, open, onClose }: { user: AuthUser | undefined; open: boolean; onClose: () => void },
) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-40 lg:hidden">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex">
        <DialogPanel className="flex w-full max-w-xs flex-col bg-white shadow-xl">
          <div className="flex items-start justify-between gap-2 border-b border-slate-200 px-5 py-4">
            <div>
              <DialogTitle as="div">
                <Brand />
              </DialogTitle>
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close menu"
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </button>
          </div>
          <SidebarContent user={user} onNavigate={onClose} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
