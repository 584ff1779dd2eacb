/**
 * The cards' data: the card list, the funding sources, and issuing, distributing and loading a card,
 * each submission with its Idempotency-Key (lib/idempotency.ts).
 */
import { useQuery } from "@tanstack/react-query";
import { type PendingApproval, withRequestReason } from "../../lib/approval.ts";
import { useSubmission } from "../../lib/idempotency.ts";
import { invalidateAll, useApprovableMutation } from "../../lib/mutation.ts";
import { type CardItem, CARDS_KEY, type FundingConfirmation, type FundingSourceItem, FUNDING_SOURCES_KEY } from "./types.ts";

export type FundedCard = CardItem & { fundingConfirmation?: FundingConfirmation };

export interface LoadResult {
  loading: FundingConfirmation;
  card: CardItem;
}

export const useCards = () => useQuery<CardItem[]>({ queryKey: [CARDS_KEY] });

export const useFundingSources = () => useQuery<FundingSourceItem[]>({ queryKey: [FUNDING_SOURCES_KEY] });

/** After any card mutation: the card list (spec 7) and the sources' balances both changed. */
const CARD_DATA_KEYS = [CARDS_KEY, FUNDING_SOURCES_KEY];

export function useIssueCard(onDone: (card: FundedCard | null) => void) {
  const submission = useSubmission();
  return useApprovableMutation({
    mutationFn: ({ requestReason, ...body }: Record<string, unknown> & { requestReason: string }) =>
      submission.send<FundedCard | PendingApproval>("POST", "/api/cards/issue", withRequestReason(body, requestReason)),
    submission,
    errorTitle: "Failed to issue card",
    onDone,
    refresh: (queryClient) => invalidateAll(queryClient, CARD_DATA_KEYS),
  });
}

export interface DistributeInput {
  recipientName: string;
  recipientEmail: string;
  cardType: string;
  distributionMethod: string;
  loadAmount: string;
  requestReason: string;
}

export function useDistributeCard(onDone: (card: FundedCard | null) => void, onError: (error: Error) => void) {
  const submission = useSubmission();
  return useApprovableMutation({
    mutationFn: (values: DistributeInput) =>
      submission.send<FundedCard | PendingApproval>(
        "POST",
        "/api/cards/distribute",
        withRequestReason({
          recipientInfo: { name: values.recipientName, email: values.recipientEmail },
          cardType: values.cardType,
          distributionMethod: values.distributionMethod,
          loadAmount: values.loadAmount,
        }, values.requestReason),
      ),
    submission,
    errorTitle: "Failed to distribute card",
    onDone,
    onError,
    refresh: (queryClient) => invalidateAll(queryClient, CARD_DATA_KEYS),
  });
}

export interface LoadInput {
  cardId: string;
  amount: string;
  fundingSource: string;
  requestReason: string;
}

export function useLoadCard(onDone: (result: LoadResult | null) => void) {
  const submission = useSubmission();
  return useApprovableMutation({
    mutationFn: ({ cardId, amount, fundingSource, requestReason }: LoadInput) =>
      submission.send<LoadResult | PendingApproval>(
        "POST",
        `/api/cards/${encodeURIComponent(cardId)}/load`,
        withRequestReason({ amount, fundingSource }, requestReason),
      ),
    submission,
    errorTitle: "Failed to load funds",
    onDone,
    refresh: (queryClient) => invalidateAll(queryClient, CARD_DATA_KEYS),
  });
}
