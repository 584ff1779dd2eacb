/** Spec 3 load-funds form: moves money from a funding source onto an active card. */
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { FUNDING_SOURCE_OPTIONS } from "./types.ts";
import { useMayCall } from "../../lib/auth.ts";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { CardActionForm } from "./card_action_form.tsx";
import { useCards, useFundingSources, useLoadCard } from "./api.ts";
import { useFormState } from "../../lib/form_state.ts";

const LOAD_DEFAULTS = { cardId: "", amount: "", fundingSource: "central_bank_treasury", requestReason: "" };

type LoadForm = typeof LOAD_DEFAULTS;

export function LoadFundsForm() {
  const { form, reset, set, bind } = useFormState<LoadForm>(LOAD_DEFAULTS);
  const { toast } = useToast();
  const { data: cards } = useCards();
  const { data: sources } = useFundingSources();

  const mayLoad = useMayCall("POST", "/api/cards/:cardId/load");
  const load = useLoadCard((result) => {
    reset();
    if (!result) return;
    const { loading, card } = result;
    toast({
      title: "Funds Loaded",
      description: `${formatCurrency(loading.amount)} loaded onto ${card.cardNumber} from ${loading.fundingSourceLabel}. New balance: ${
        formatCurrency(card.currentBalance)
      }.`,
    });
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
    <CardActionForm
      path="/api/cards/:cardId/load"
      onSubmit={() => {
        if (!disabled) load.mutate(form);
      }}
      isPending={load.isPending}
      disabled={disabled}
      submitLabel="Load Funds"
      pendingLabel="Loading…"
    >
      <div className="sm:col-span-2">
        <SelectField
          label="Card"
          required
          placeholder="Select a card"
          options={cardOptions}
          {...bind("cardId")}
        />
      </div>
      <TextField label="Amount" type="number" required min={0.01} step={0.01} {...bind("amount")} />
      <SelectField label="Funding Source" options={sourceOptions} {...bind("fundingSource")} />
      <div className="sm:col-span-2">
        <ApprovalReasonField value={form.requestReason} onChange={set("requestReason")} />
      </div>
    </CardActionForm>
  );
}
