/** The cards' data: the card list, the funding sources, and issuing, distributing and loading a card. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { type PendingApproval, withRequestReason } from "../../lib/approval.ts";
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

export const useIssueCard = (onDone: (card: FundedCard | null) => void) =>
  useApprovableMutation({
    mutationFn: ({ requestReason, ...body }: Record<string, unknown> & { requestReason: string }) =>
      apiJson<FundedCard | PendingApproval>("POST", "/api/cards/issue", withRequestReason(body, requestReason)),
    errorTitle: "Failed to issue card",
    onDone,
    refresh: (queryClient) => invalidateAll(queryClient, CARD_DATA_KEYS),
  });

export interface DistributeInput {
  recipientName: string;
  recipientEmail: string;
  cardType: string;
  distributionMethod: string;
  loadAmount: string;
  requestReason: string;
}

export const useDistributeCard = (onDone: (card: FundedCard | null) => void, onError: (error: Error) => void) =>
  useApprovableMutation({
    mutationFn: (values: DistributeInput) =>
      apiJson<FundedCard | PendingApproval>(
        "POST",
        "/api/cards/distribute",
        withRequestReason({
          recipientInfo: { name: values.recipientName, email: values.recipientEmail },
          cardType: values.cardType,
          distributionMethod: values.distributionMethod,
          loadAmount: values.loadAmount,
        }, values.requestReason),
      ),
    errorTitle: "Failed to distribute card",
    onDone,
    onError,
    refresh: (queryClient) => invalidateAll(queryClient, CARD_DATA_KEYS),
  });

export interface LoadInput {
  cardId: string;
  amount: string;
  fundingSource: string;
  requestReason: string;
}

export const useLoadCard = (onDone: (result: LoadResult | null) => void) =>
  useApprovableMutation({
    mutationFn: ({ cardId, amount, fundingSource, requestReason }: LoadInput) =>
      apiJson<LoadResult | PendingApproval>(
        "POST",
        `/api/cards/${encodeURIComponent(cardId)}/load`,
        withRequestReason({ amount, fundingSource }, requestReason),
      ),
    errorTitle: "Failed to load funds",
    onDone,
    refresh: (queryClient) => invalidateAll(queryClient, CARD_DATA_KEYS),
  });
