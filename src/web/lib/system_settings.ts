/**
 * The System Settings as the server keeps them (GET /api/settings): the shell shows the system's
 * name, description, country, currency and time zone from them, and the settings screen edits them.
 */
import { useQuery } from "@tanstack/react-query";
import type { SystemSettingsAnswer } from "../../server/features/settings/schemas.ts";

export type { SystemSettingsAnswer };

export const SYSTEM_SETTINGS_KEY = "/api/settings";

/** While a backup runs, read again every BACKUP_POLL_MS so the Backup tab shows how it ended. */
const BACKUP_POLL_MS = 2_000;

export const useSystemSettings = () =>
  useQuery<SystemSettingsAnswer>({
    queryKey: [SYSTEM_SETTINGS_KEY],
    refetchInterval: (query) =>
      query.state.data?.backup.lastRun?.status === "running" ? BACKUP_POLL_MS : false,
  });

