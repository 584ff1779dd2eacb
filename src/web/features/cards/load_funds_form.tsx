/** Spec 3 load-funds form: moves money from a funding source onto an active card. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { apiJson } from "../../lib/api.ts";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import {
  type CardItem,
  CARDS_KEY,
  type FundingConfirmation,
  FUNDING_SOURCE_OPTIONS,
  FUNDING_SOURCES_KEY,
  type FundingSourceItem,
} from "./types.ts";
import { useRefreshCards } from "./use_refresh_cards.ts";
import { type PendingApproval, useOnPendingApproval } from "../../lib/approval.ts";
import { useMayCall } from "../../lib/auth.ts";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { IfAllowed } from "../../components/if_allowed.tsx";

const LOAD_DEFAULTS = { cardId: "", amount: "", fundingSource: "central_bank_treasury", requestReason: "" };

type LoadForm = typeof LOAD_DEFAULTS;
interface LoadResult {
  loading: FundingConfirmation;
  card: CardItem;
}

export function LoadFundsForm() {
  const [form, setForm] = useState<LoadForm>(LOAD_DEFAULTS);
  const { toast } = useToast();
  const refresh = useRefreshCards();
  const { data: cards } = useQuery<CardItem[]>({ queryKey: [CARDS_KEY] });
  const { data: sources } = useQuery<FundingSourceItem[]>({ queryKey: [FUNDING_SOURCES_KEY] });
  const set = (field: keyof LoadForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const onPending = useOnPendingApproval();
  const mayLoad = useMayCall("POST", "/api/cards/:cardId/load");
  const load = useMutation({
    mutationFn: ({ cardId, amount, fundingSource, requestReason }: LoadForm) =>
      apiJson<LoadResult | PendingApproval>("POST", `/api/cards/${encodeURIComponent(cardId)}/load`, {
        amount,
        fundingSource,
        ...(requestReason.trim() ? { requestReason: requestReason.trim() } : {}),
      }),
    onSuccess: (result) => {
      setForm(LOAD_DEFAULTS);
      if (onPending(result)) return;
      const { loading, card } = result;
      refresh();
      toast({
        title: "Funds Loaded",
        description: `${formatCurrency(loading.amount)} loaded onto ${card.cardNumber} from ${loading.fundingSourceLabel}. New balance: ${
          formatCurrency(card.currentBalance)
        }.`,
      });
    },
    onError: (error) => handleMutationError(error, toast, "Failed to load funds"),
  });

  const cardOptions = (cards ?? []).filter((card) => card.cardStatus === "active").map((card) => ({
    value: card.id,
    label: `${card.cardNumber} · ${card.cardholderName}`,
  }));
  const sourceOptions = FUNDING_SOURCE_OPTIONS.map((option) => {
    const source = sources?.find((candidate) => candidate.fundingSource === option.value);
    return source ? { ...option, label: `${option.label} (${formatCurrency(source.availableBalance)} available)` } : option;
  });
  const disabled = !mayLoad || !form.cardId || Number(form.amount) === 0 || load.isPending;

  return (
    <form
      noValidate
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled) load.mutate(form);
      }}
    >
      <div className="sm:col-span-2">
        <SelectField
          label="Card"
          required
          placeholder="Select a card"
          options={cardOptions}
          value={form.cardId}
          onChange={set("cardId")}
        />
      </div>
      <TextField label="Amount" type="number" required min={0.01} step={0.01} value={form.amount} onChange={set("amount")} />
      <SelectField label="Funding Source" options={sourceOptions} value={form.fundingSource} onChange={set("fundingSource")} />
      <div className="sm:col-span-2">
        <ApprovalReasonField value={form.requestReason} onChange={(value) => setForm((current) => ({ ...current, requestReason: value }))} />
      </div>
      <div className="flex justify-end sm:col-span-2">
        <IfAllowed method="POST" path="/api/cards/:cardId/load">
          <Button type="submit" disabled={disabled}>{load.isPending ? "Loading…" : "Load Funds"}</Button>
        </IfAllowed>
      </div>
    </form>
  );
}
