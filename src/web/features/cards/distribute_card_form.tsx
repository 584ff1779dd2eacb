/** Spec 3 distribute-card form: a card for a recipient, sent as recipientInfo {name, email}. */
import { object, safeParse } from "zod/mini";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { formatCurrency, titleCase } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { checkValue, fieldErrors, requiredEmail, requiredText } from "../../lib/form_validation.ts";
import { type FormBinding, useFormState } from "../../lib/form_state.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { DISTRIBUTION_CARD_TYPE_OPTIONS, DISTRIBUTION_METHOD_OPTIONS } from "./types.ts";
import { AmountField } from "../../components/amount_field.tsx";
import type { ApprovalPreview } from "../../lib/approval.ts";
import { FundingApproval, missingFundingReason, useFundingPreview } from "./funding_approval.tsx";
import { CardActionForm } from "./card_action_form.tsx";
import { useDistributeCard } from "./api.ts";

const DISTRIBUTE_DEFAULTS = {
  recipientName: "",
  recipientEmail: "",
  cardType: "prepaid",
  distributionMethod: "digital",
  loadAmount: "0",
  requestReason: "",
};

type DistributeForm = typeof DISTRIBUTE_DEFAULTS;

/** The server's recipientInfo rules (cards schemas): a name and an e-mail address, 255 characters each. */
const MAX_RECIPIENT_TEXT_LENGTH = 255;
const recipientRules = object({
  recipientName: requiredText(MAX_RECIPIENT_TEXT_LENGTH),
  recipientEmail: requiredEmail(MAX_RECIPIENT_TEXT_LENGTH),
});
/** Server field paths of the recipient, as a 400 names them. */
const SERVER_FIELDS: Record<string, keyof DistributeForm> = {
  "recipientInfo.name": "recipientName",
  "recipientInfo.email": "recipientEmail",
  recipientInfo: "recipientName",
  loadAmount: "loadAmount",
};

/** An error already shown is re-checked as the user types and goes once the value is valid; the server's stay. */
function recheckRecipient(field: keyof DistributeForm, value: string, shown: string): string | undefined {
  if (field === "requestReason") return undefined;
  const rule = recipientRules.shape[field as keyof typeof recipientRules.shape];
  return rule ? checkValue(rule, value) : shown;
}

function DistributeFields({ form, errors, set, bind, preview }: FormBinding<DistributeForm> & {
  preview: ApprovalPreview | null;
}) {
  return (
    <>
      <TextField
        label="Recipient Name"
        required
        maxLength={MAX_RECIPIENT_TEXT_LENGTH}
        {...bind("recipientName")}
      />
      <TextField
        label="Recipient Email"
        type="email"
        required
        maxLength={MAX_RECIPIENT_TEXT_LENGTH}
        {...bind("recipientEmail")}
      />
      <SelectField label="Card Type" options={DISTRIBUTION_CARD_TYPE_OPTIONS} {...bind("cardType")} />
      <SelectField
        label="Distribution Method"
        options={DISTRIBUTION_METHOD_OPTIONS}
        {...bind("distributionMethod")}
      />
      <AmountField
        label="Load Amount"
        currency="USD"
        {...bind("loadAmount")}
        hint="Funded from the Central Bank Treasury"
      />
      <FundingApproval
        preview={preview}
        reason={form.requestReason}
        onReason={set("requestReason")}
        error={errors.requestReason}
      />
    </>
  );
}

export function DistributeCardForm() {
  const state = useFormState<DistributeForm>(DISTRIBUTE_DEFAULTS, { recheck: recheckRecipient });
  const { form, reset, setErrors } = state;
  const preview = useFundingPreview("card_distribute", form.loadAmount);
  const toApproval = preview?.outcome === "approval";
  const { toast } = useToast();
  const distribute = useDistributeCard((card) => {
    reset();
    if (!card) return;
    toast({
      title: "Card Distributed",
      description: `Card ${card.cardNumber} distributed to ${card.cardholderName} (${
        titleCase(card.distributionMethod ?? "")
      }), loaded with ${formatCurrency(card.fundingConfirmation?.amount ?? "0")}.`,
    });
  }, (error) => {
    const server = serverFieldErrors(error);
    setErrors(Object.fromEntries(
      Object.entries(server).flatMap(([path, message]) => SERVER_FIELDS[path] ? [[SERVER_FIELDS[path], message]] : []),
    ));
  });

  return (
    <CardActionForm
      path="/api/cards/distribute"
      onSubmit={() => {
        const checked = safeParse(recipientRules, form);
        if (!checked.success) return setErrors(fieldErrors(checked.error));
        const requestReason = missingFundingReason(preview, form.requestReason);
        setErrors({ requestReason });
        if (!requestReason && !distribute.isPending) distribute.mutate(form);
      }}
      isPending={distribute.isPending}
      submitLabel={toApproval ? "Submit for approval" : "Distribute Card"}
      pendingLabel={toApproval ? "Submitting…" : "Distributing…"}
    >
      <DistributeFields {...state} preview={preview} />
    </CardActionForm>
  );
}
