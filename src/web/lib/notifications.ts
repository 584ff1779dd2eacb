/**
 * The signed-in user's notifications for the bell: the newest page of the feed, kept live by the
 * server-sent events of /api/notifications/stream, and marking entries read.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiRequest } from "./api.ts";
import { useApiMutation } from "./mutation.ts";
import type { Feed } from "../../server/features/notifications/schemas.ts";

export type { Feed };
export type Notification = Feed["items"][number];

export const NOTIFICATIONS_PATH = "/api/notifications";
/** The bell shows this many of the newest entries. */
export const BELL_PAGE = 20;
export const NOTIFICATIONS_KEY = `${NOTIFICATIONS_PATH}?limit=${BELL_PAGE}`;

/** Refetched on focus too: entries read in another tab are read here as well. */
export const useNotifications = () => useQuery<Feed>({ queryKey: [NOTIFICATIONS_KEY], refetchOnWindowFocus: true });

/** Refetches the feed whenever the stream says something changed; the browser reconnects by itself. */
export function useLiveNotifications(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const source = new EventSource(`${NOTIFICATIONS_PATH}/stream`, { withCredentials: true });
    const refresh = () => queryClient.invalidateQueries({ queryKey: [NOTIFICATIONS_KEY] });
    source.addEventListener("notification", refresh);
    // The session ended: the sign-in check of the next request takes the user to the sign-in page.
    source.addEventListener("end", () => source.close());
    return () => source.close();
  }, [queryClient]);
}

export const useMarkRead = () =>
  useApiMutation({
    mutationFn: (id: string) => apiRequest("POST", `${NOTIFICATIONS_PATH}/${id}/read`),
    invalidates: [NOTIFICATIONS_KEY],
    errorTitle: "Could not mark the notification read",
  });

export const useMarkAllRead = () =>
  useApiMutation({
    mutationFn: () => apiRequest("POST", `${NOTIFICATIONS_PATH}/read-all`),
    invalidates: [NOTIFICATIONS_KEY],
    errorTitle: "Could not mark the notifications read",
  });
