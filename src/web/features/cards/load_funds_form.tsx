/** Spec 3 load-funds form: moves money from a funding source onto an active card. */
import { SelectField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { FUNDING_SOURCE_OPTIONS } from "./types.ts";
import { useMayCall } from "../../lib/auth.ts";
import { AmountField } from "../../components/amount_field.tsx";
import { FundingApproval, missingFundingReason, useFundingPreview } from "./funding_approval.tsx";
import { CardActionForm } from "./card_action_form.tsx";
import { useCards, useFundingSources, useLoadCard } from "./api.ts";
import { useFormState } from "../../lib/form_state.ts";

const LOAD_DEFAULTS = { cardId: "", amount: "", fundingSource: "central_bank_treasury", requestReason: "" };

type LoadForm = typeof LOAD_DEFAULTS;

export function LoadFundsForm() {
  const { form, errors, reset, setErrors, set, bind } = useFormState<LoadForm>(LOAD_DEFAULTS);
  const preview = useFundingPreview("card_load", form.amount, form.fundingSource);
  const toApproval = preview?.outcome === "approval";
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
  // No amount yet, or only zeros: nothing to load.
  const disabled = !mayLoad || !form.cardId || !/[1-9]/.test(form.amount) || load.isPending;

  return (
    <CardActionForm
      path="/api/cards/:cardId/load"
      onSubmit={() => {
        const requestReason = missingFundingReason(preview, form.requestReason);
        setErrors({ requestReason });
        if (!disabled && !requestReason) load.mutate(form);
      }}
      isPending={load.isPending}
      disabled={disabled}
      submitLabel={toApproval ? "Submit for approval" : "Load Funds"}
      pendingLabel={toApproval ? "Submitting…" : "Loading…"}
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
      <AmountField label="Amount" currency="USD" required {...bind("amount")} />
      <SelectField label="Funding Source" options={sourceOptions} {...bind("fundingSource")} />
      <FundingApproval
        preview={preview}
        reason={form.requestReason}
        onReason={set("requestReason")}
        error={errors.requestReason}
      />
    </CardActionForm>
  );
}
