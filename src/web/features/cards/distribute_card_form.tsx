/** Spec 3 distribute-card form: a card for a recipient, sent as recipientInfo {name, email}. */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { apiJson } from "../../lib/api.ts";
import { formatCurrency, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import {
  type CardItem,
  DISTRIBUTION_CARD_TYPE_OPTIONS,
  DISTRIBUTION_METHOD_OPTIONS,
  type FundingConfirmation,
} from "./types.ts";
import { useRefreshCards } from "./use_refresh_cards.ts";
import { type PendingApproval, useOnPendingApproval } from "../../lib/approval.ts";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { IfAllowed } from "../../components/if_allowed.tsx";

const DISTRIBUTE_DEFAULTS = {
  recipientName: "",
  recipientEmail: "",
  cardType: "prepaid",
  distributionMethod: "digital",
  loadAmount: "0",
  requestReason: "",
};

type DistributeForm = typeof DISTRIBUTE_DEFAULTS;
type DistributedCard = CardItem & { fundingConfirmation?: FundingConfirmation };

export function DistributeCardForm() {
  const [form, setForm] = useState<DistributeForm>(DISTRIBUTE_DEFAULTS);
  const { toast } = useToast();
  const refresh = useRefreshCards();
  const set = (field: keyof DistributeForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const onPending = useOnPendingApproval();
  const distribute = useMutation({
    mutationFn: (values: DistributeForm) =>
      apiJson<DistributedCard | PendingApproval>("POST", "/api/cards/distribute", {
        recipientInfo: { name: values.recipientName, email: values.recipientEmail },
        cardType: values.cardType,
        distributionMethod: values.distributionMethod,
        loadAmount: values.loadAmount,
        ...(values.requestReason.trim() ? { requestReason: values.requestReason.trim() } : {}),
      }),
    onSuccess: (card) => {
      setForm(DISTRIBUTE_DEFAULTS);
      if (onPending(card)) return;
      refresh();
      toast({
        title: "Card Distributed",
        description: `Card ${card.cardNumber} distributed to ${card.cardholderName} (${
          titleCase(card.distributionMethod ?? "")
        }), loaded with ${formatCurrency(card.fundingConfirmation?.amount ?? "0")}.`,
      });
    },
    onError: (error) => handleMutationError(error, toast, "Failed to distribute card"),
  });

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        distribute.mutate(form);
      }}
    >
      <TextField label="Recipient Name" required maxLength={255} value={form.recipientName} onChange={set("recipientName")} />
      <TextField
        label="Recipient Email"
        type="email"
        required
        maxLength={255}
        value={form.recipientEmail}
        onChange={set("recipientEmail")}
      />
      <SelectField label="Card Type" options={DISTRIBUTION_CARD_TYPE_OPTIONS} value={form.cardType} onChange={set("cardType")} />
      <SelectField
        label="Distribution Method"
        options={DISTRIBUTION_METHOD_OPTIONS}
        value={form.distributionMethod}
        onChange={set("distributionMethod")}
      />
      <TextField
        label="Load Amount"
        type="number"
        min={0}
        step={0.01}
        value={form.loadAmount}
        onChange={set("loadAmount")}
        hint="Funded from the Central Bank Treasury"
      />
      <ApprovalReasonField value={form.requestReason} onChange={(value) => setForm((current) => ({ ...current, requestReason: value }))} />
      <div className="flex items-end justify-end sm:col-span-2">
        <IfAllowed method="POST" path="/api/cards/distribute">
          <Button type="submit" disabled={distribute.isPending}>
            {distribute.isPending ? "Distributing…" : "Distribute Card"}
          </Button>
        </IfAllowed>
      </div>
    </form>
  );
}
