/**
 * Whether dual control of administration is in force (GET /api/dual-control, administrators only):
 * the shell's banner says so while one administrator acts alone, and the administrators' forms ask
 * for a reason once a change of theirs becomes a request for a second administrator.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { DualControlSummary } from "../../server/features/users/service.ts";
import { useMayCall } from "./auth.ts";
import { serverFieldErrors } from "./form_input.ts";

export type { DualControlSummary };

export const DUAL_CONTROL_KEY = "/api/dual-control";

/** Fetched only for administrators: to anyone else the route answers 403. */
export function useDualControl() {
  const allowed = useMayCall("GET", DUAL_CONTROL_KEY);
  return useQuery<DualControlSummary>({ queryKey: [DUAL_CONTROL_KEY], enabled: allowed });
}

/** True once an administrator's change that gives power needs a second administrator's approval. */
export function useDualControlInForce(): boolean {
  return useDualControl().data?.inForce ?? false;
}

export const SECOND_ADMINISTRATOR_HINT =
  "Dual control is in force: a second administrator must approve this change; nothing changes until then";

/**
 * For a form's failure handler: an answer that names dual control or asks for a reason means dual
 * control came into force since the screen read it, so it is read again and the reason field shows.
 */
export function useDualControlRecheck(): (error: unknown) => void {
  const queryClient = useQueryClient();
  return (error) => {
    const named = serverFieldErrors(error);
    if ("dualControl" in named || "requestReason" in named) {
      queryClient.invalidateQueries({ queryKey: [DUAL_CONTROL_KEY] });
    }
  };
}
