/**
 * The one setting of this screen kept on the server (whether every user signs in with a second
 * factor), and the lost-change reports of the replicated topology.
 */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { type PendingApproval, withRequestReason } from "../../lib/approval.ts";
import { invalidateAll, useApprovableMutation } from "../../lib/mutation.ts";
import type { SignInSettings } from "../../../server/auth/settings_routes.ts";
import type { DivergenceReport } from "../../../server/features/system/service.ts";

export type { DivergenceReport, SignInSettings };

const SIGN_IN_SETTINGS_KEY = "/api/auth/sign-in-settings";

export const useSignInSettings = () => useQuery<SignInSettings>({ queryKey: [SIGN_IN_SETTINGS_KEY] });

/** Under dual control the change is a request for a second administrator (202): the setting stays as it is. */
export const useSaveSignInSettings = (
  onDone: (settings: SignInSettings | null) => void,
  onError: (error: Error) => void,
) =>
  useApprovableMutation({
    mutationFn: ({ mfaRequired, requestReason }: { mfaRequired: boolean; requestReason: string }) =>
      apiJson<SignInSettings | PendingApproval>(
        "PUT",
        SIGN_IN_SETTINGS_KEY,
        withRequestReason({ mfaRequired }, requestReason),
      ),
    errorTitle: "Sign-in setting not saved",
    onDone,
    onError,
    refresh: (queryClient) => invalidateAll(queryClient, [SIGN_IN_SETTINGS_KEY]),
  });

/** What each node found a primary restore lost (GET /api/system/divergence-reports), newest first. */
export const useDivergenceReports = () =>
  useQuery<DivergenceReport[]>({ queryKey: ["/api/system/divergence-reports"], refetchInterval: REPORTS_REFRESH_MS });

const REPORTS_REFRESH_MS = 30_000;
