/** Spec 3 issue-card form: cardholder, type, brand, limits and an initial balance from the treasury. */
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { checkValue, requiredText } from "../../lib/form_validation.ts";
import { CARD_BRAND_OPTIONS, CARD_TYPE_OPTIONS } from "./types.ts";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
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
  // Only the cardholder name is ever marked, so an edit re-checks it by its rule.
  const { form, reset, setErrors, set, bind } = useFormState<IssueForm>(ISSUE_DEFAULTS, {
    recheck: (_field, value) => checkValue(cardholderRule, value),
  });
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
        setErrors({ cardholderName: error });
        if (!error && !issue.isPending) issue.mutate(form);
      }}
      isPending={issue.isPending}
      submitLabel="Issue Card"
      pendingLabel="Issuing…"
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
      <TextField
        label="Initial Balance"
        type="number"
        min={0}
        step={0.01}
        {...bind("initialBalance")}
        hint="Funded from the Central Bank Treasury"
      />
      <ApprovalReasonField value={form.requestReason} onChange={set("requestReason")} />
    </CardActionForm>
  );
}
