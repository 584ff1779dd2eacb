/** Spec 3 issue-card form: cardholder, type, brand, limits and an initial balance from the treasury. */
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { checkValue, requiredText } from "../../lib/form_validation.ts";
import { CARD_BRAND_OPTIONS, CARD_TYPE_OPTIONS } from "./types.ts";
import { AmountField } from "../../components/amount_field.tsx";
import { FundingApproval, missingFundingReason, useFundingPreview } from "./funding_approval.tsx";
import { CardActionForm } from "./card_action_form.tsx";
import { useIssueCard } from "./api.ts";
import { useFormState } from "../../lib/form_state.ts";

const ISSUE_DEFAULTS = {
  cardholderName: "",
  cardType: "prepaid",
  cardBrand: "visa",
  spendingLimit: "10000",
  dailyLimit: "1000",
  initialBalance: "0",
  requestReason: "",
};

type IssueForm = typeof ISSUE_DEFAULTS;

/** The server's rule for the cardholder (cards schemas): required, at most 255 characters. */
const MAX_CARDHOLDER_NAME_LENGTH = 255;
const cardholderRule = requiredText(MAX_CARDHOLDER_NAME_LENGTH);

export function IssueCardForm() {
  // An edit re-checks the cardholder name by its rule; a reason typed in clears its mark.
  const { form, errors, reset, setErrors, set, bind } = useFormState<IssueForm>(ISSUE_DEFAULTS, {
    recheck: (field, value) => field === "cardholderName" ? checkValue(cardholderRule, value) : undefined,
  });
  const preview = useFundingPreview("card_issue", form.initialBalance);
  const toApproval = preview?.outcome === "approval";
  const { toast } = useToast();

  const issue = useIssueCard((card) => {
    reset();
    if (!card) return;
    toast({
      title: "Card Issued",
      description: `Card ${card.cardNumber} issued to ${card.cardholderName}, funded with ${
        formatCurrency(card.fundingConfirmation?.amount ?? "0")
      }.`,
    });
  });

  return (
    <CardActionForm
      path="/api/cards/issue"
      onSubmit={() => {
        const error = checkValue(cardholderRule, form.cardholderName);
        const requestReason = missingFundingReason(preview, form.requestReason);
        setErrors({ cardholderName: error, requestReason });
        if (!error && !requestReason && !issue.isPending) issue.mutate(form);
      }}
      isPending={issue.isPending}
      submitLabel={toApproval ? "Submit for approval" : "Issue Card"}
      pendingLabel={toApproval ? "Submitting…" : "Issuing…"}
    >
      <div className="sm:col-span-2">
        <TextField
          label="Cardholder Name"
          required
          maxLength={MAX_CARDHOLDER_NAME_LENGTH}
          {...bind("cardholderName")}
        />
      </div>
      <SelectField label="Card Type" options={CARD_TYPE_OPTIONS} {...bind("cardType")} />
      <SelectField label="Card Brand" options={CARD_BRAND_OPTIONS} {...bind("cardBrand")} />
      <TextField label="Spending Limit" type="number" min={0} step={1} {...bind("spendingLimit")} />
      <TextField label="Daily Limit" type="number" min={0} step={1} {...bind("dailyLimit")} />
      <AmountField
        label="Initial Balance"
        currency="USD"
        {...bind("initialBalance")}
        hint="Funded from the Central Bank Treasury"
      />
      <FundingApproval
        preview={preview}
        reason={form.requestReason}
        onReason={set("requestReason")}
        error={errors.requestReason}
      />
    </CardActionForm>
  );
}
