/**
 * The header's bell: the unread count, and a popover listing the newest notifications with their time
 * and summary; each links to its subject and can be marked read, and "Mark all read" clears the count.
 * The list stays live through the notification stream (server-sent events).
 */
import { CloseButton, Popover, PopoverButton, PopoverPanel } from "@headlessui/react";
import { Bell } from "lucide-react";
import { Link } from "react-router";
import { formatDateTime } from "../../lib/format.ts";
import {
  type Notification,
  useLiveNotifications,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
} from "../../lib/notifications.ts";
import { useChangesPaused } from "../../lib/changes_paused.ts";
import { Button } from "../ui/button.tsx";
import { HEADER_PANEL } from "./header_panel.ts";

/** Past this the badge says "99+". */
const BADGE_MAX = 99;

function NotificationEntry({ entry }: { entry: Notification }) {
  const markRead = useMarkRead();
  const paused = useChangesPaused();
  const summary = <span className="block text-sm text-slate-900">{entry.summary}</span>;
  return (
    <li className={`flex gap-3 px-4 py-3 ${entry.read ? "" : "bg-blue-50"}`} data-testid="notification-entry">
      <span
        aria-hidden="true"
        className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${entry.read ? "bg-transparent" : "bg-blue-700"}`}
      />
      <div className="min-w-0 flex-1">
        <time dateTime={entry.occurredAt} className="block text-xs text-slate-600">{formatDateTime(entry.occurredAt)}</time>
        {entry.link
          ? (
            <CloseButton as={Link} to={entry.link} className="underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-700">
              {summary}
            </CloseButton>
          )
          : summary}
        {entry.read
          ? <span className="sr-only">Read</span>
          : (
            <button
              type="button"
              className="mt-1 text-xs font-medium text-blue-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
              disabled={markRead.isPending || paused !== null}
              title={paused ?? undefined}
              onClick={() => markRead.mutate(entry.id)}
            >
              Mark read<span className="sr-only">: {entry.summary}</span>
            </button>
          )}
      </div>
    </li>
  );
}

export function NotificationBell() {
  useLiveNotifications();
  const { data } = useNotifications();
  const markAll = useMarkAllRead();
  const unread = data?.unreadCount ?? 0;
  const items = data?.items ?? [];
  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <Popover className="relative">
      <PopoverButton as={Button} variant="ghost" size="icon" aria-label={label} className="relative" data-testid="notification-bell">
        <Bell aria-hidden="true" className="h-5 w-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="notification-count"
            className="absolute -right-0.5 -top-0.5 min-w-[1.1rem] rounded-full bg-red-700 px-1 text-center text-[0.65rem] font-semibold leading-[1.1rem] text-white"
          >
            {unread > BADGE_MAX ? `${BADGE_MAX}+` : unread}
          </span>
        )}
      </PopoverButton>
      <PopoverPanel
        className={`${HEADER_PANEL} flex max-h-[28rem] w-96 flex-col`}
        data-testid="notification-panel"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
          <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
          <Button variant="ghost" size="sm" changes disabled={unread === 0 || markAll.isPending} onClick={() => markAll.mutate()}>
            Mark all read
          </Button>
        </div>
        {items.length === 0
          ? <p className="px-4 py-6 text-center text-sm text-slate-600">No notifications</p>
          : (
            <ul className="divide-y divide-slate-100 overflow-y-auto" aria-label="Notifications">
              {items.map((entry) => <NotificationEntry key={entry.id} entry={entry} />)}
            </ul>
          )}
      </PopoverPanel>
    </Popover>
  );
}
