/**
 * The shape every screen's mutation shares: call the API, refresh the queries whose data it
 * changed, and report a failure with the standard handler (sign-in again, or the server's reason).
 */
import { type QueryClient, useMutation, type UseMutationResult, useQueryClient } from "@tanstack/react-query";
import { type PendingApproval, useOnPendingApproval } from "./approval.ts";
import type { Submission } from "./idempotency.ts";
import { useToast } from "./toast.ts";
import { handleMutationError } from "./unauthorized.ts";

export interface ApiMutationOptions<TInput, TResult> {
  mutationFn: (input: TInput) => Promise<TResult>;
  /** Query keys whose first element is one of these are refetched after success. */
  invalidates?: readonly string[];
  /** Query keys whose first element starts with one of these are refetched after success. */
  invalidatesPrefixes?: readonly string[];
  /** The query whose data the answer replaces (a saved setting is the setting as stored). */
  storesAs?: string;
  /** The failure toast's title; without it the caller handles failures in onError. */
  errorTitle?: string;
  /** The Idempotency-Key of the form's submissions (its `send` makes the request), settled by each answer. */
  submission?: Submission;
  onSuccess?: (result: TResult, input: TInput) => void;
  onError?: (error: Error) => void;
}

export function invalidateAll(
  queryClient: QueryClient,
  keys: readonly string[] = [],
  prefixes: readonly string[] = [],
): void {
  for (const key of keys) queryClient.invalidateQueries({ queryKey: [key] });
  if (prefixes.length === 0) return;
  queryClient.invalidateQueries({
    predicate: (query) => prefixes.some((prefix) => String(query.queryKey[0]).startsWith(prefix)),
  });
}

export function useApiMutation<TInput = void, TResult = unknown>(
  options: ApiMutationOptions<TInput, TResult>,
): UseMutationResult<TResult, Error, TInput> {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: (result, input) => {
      options.submission?.settle();
      if (options.storesAs !== undefined) queryClient.setQueryData([options.storesAs], result);
      invalidateAll(queryClient, options.invalidates, options.invalidatesPrefixes);
      options.onSuccess?.(result, input);
    },
    onError: (error) => {
      options.submission?.settle(error);
      if (options.errorTitle !== undefined) handleMutationError(error, toast, options.errorTitle);
      options.onError?.(error);
    },
  });
}

export interface ApprovableMutationOptions<TInput, TResult>
  extends Omit<ApiMutationOptions<TInput, TResult | PendingApproval>, "onSuccess" | "invalidates" | "invalidatesPrefixes" | "storesAs"> {
  /** Called with the result, or with null when the action waits for a second person's approval. */
  onDone: (result: TResult | null) => void;
  /** Refreshes what the executed action changed; not called while it waits. */
  refresh: (queryClient: QueryClient) => void;
}

/** A mutation that a four-eyes threshold may answer with a pending request instead of its result. */
export function useApprovableMutation<TInput, TResult>(
  options: ApprovableMutationOptions<TInput, TResult>,
): UseMutationResult<TResult | PendingApproval, Error, TInput> {
  const queryClient = useQueryClient();
  const onPending = useOnPendingApproval();
  return useApiMutation<TInput, TResult | PendingApproval>({
    ...options,
    onSuccess: (result) => {
      if (onPending(result)) return options.onDone(null);
      options.onDone(result);
      options.refresh(queryClient);
    },
  });
}
