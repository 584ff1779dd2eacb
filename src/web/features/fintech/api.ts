/** The fintech screen's data: the providers' status and the four provider calls (Plaid, Visa Direct). */
import { useQuery } from "@tanstack/react-query";
import { useSubmission } from "../../lib/idempotency.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { useToast } from "../../lib/toast.ts";
import { isUnauthorizedError, redirectToLogin } from "../../lib/unauthorized.ts";
import {
  type AccountBalance,
  type AccountVerification,
  type DirectTransfer,
  FINTECH_STATUS_KEY,
  type FintechStatus,
  type PushPayment,
} from "./types.ts";

export const useFintechStatus = () => useQuery<FintechStatus>({ queryKey: [FINTECH_STATUS_KEY] });

/**
 * A provider call, each submission with its Idempotency-Key, so a resubmit never asks the provider
 * twice: an ended session signs in again; any other failure shows `failure`, or nothing where spec 8
 * wants no message.
 */
function useProviderCall<TInput, TResult>(
  url: string,
  onSuccess: (result: TResult) => void,
  failure?: { title: string; description: string },
) {
  const { toast } = useToast();
  const submission = useSubmission();
  return useApiMutation({
    mutationFn: (body: TInput) => submission.send<TResult>("POST", url, body),
    submission,
    onSuccess,
    onError: (error) => {
      if (isUnauthorizedError(error)) return redirectToLogin(toast);
      if (failure) toast({ ...failure, variant: "destructive" });
    },
  });
}

export const useVerifyAccount = (onVerified: (result: AccountVerification) => void) =>
  useProviderCall<{ accountNumber: string; routingNumber: string }, AccountVerification>(
    "/api/plaid/verify-account",
    onVerified,
    { title: "Verification Failed", description: "Failed to verify account through Plaid" },
  );

export const useCheckBalance = (onChecked: (result: AccountBalance) => void) =>
  useProviderCall<{ accountId: string }, AccountBalance>("/api/plaid/check-balance", onChecked);

export const useDirectTransfer = (onSent: (result: DirectTransfer) => void) =>
  useProviderCall<{ recipientCard: string; amount: string; currency: string }, DirectTransfer>(
    "/api/visa/direct-transfer",
    onSent,
    { title: "Transfer Failed", description: "Failed to process Visa Direct transfer" },
  );

export const usePushPayment = (onApproved: (result: PushPayment) => void) =>
  useProviderCall<{ accountId: string; cardNumber: string; amount: string; merchantInfo: string }, PushPayment>(
    "/api/visa/push-payment",
    onApproved,
  );
