/**
 * The System Settings as the server keeps them (GET /api/settings): the shell shows the system's
 * name from them, and the settings screen edits them.
 */
import { useQuery } from "@tanstack/react-query";
import type { SystemSettingsAnswer } from "../../server/features/settings/schemas.ts";

export type { SystemSettingsAnswer };

export const SYSTEM_SETTINGS_KEY = "/api/settings";

export const useSystemSettings = () => useQuery<SystemSettingsAnswer>({ queryKey: [SYSTEM_SETTINGS_KEY] });

/** The administrators' name for the system, for the shell's title. */
export function useSystemName(): string | undefined {
  return useSystemSettings().data?.systemName;
}
