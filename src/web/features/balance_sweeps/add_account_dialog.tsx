/**
 * "Add Account" (spec 2.10 and 5): account number and name are required, the initial balance
 * defaults to '0.00' (step 0.01); an optional sweep threshold and target liquid account set up
 * automatic sweeps. Amounts go to the server as the typed decimal strings, which parses them exactly.
 */
import { formatCurrency, titleCase } from "../../lib/format.ts";
import { useMemo } from "react";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import { ACCOUNT_TYPE_OPTIONS, accountLabel, CURRENCY_OPTIONS, type LedgerAccount } from "./types.ts";
import { AmountField } from "../../components/amount_field.tsx";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { useCreateLedgerAccount } from "./api.ts";
import { ApprovalPreviewNote } from "../../components/approval_preview.tsx";
import { useApprovalPreview } from "../../lib/approval.ts";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { FormDialog } from "../../components/form_dialog.tsx";
import { type FormBinding, type FormErrors, useDialogForm } from "../../lib/form_state.ts";

const MAX_ACCOUNT_NUMBER_LENGTH = 34;
const MAX_ACCOUNT_NAME_LENGTH = 255;
const DEFAULT_INITIAL_BALANCE = "0.00";
const REASON_REQUIRED = "Give a reason: an initial balance other than 0.00 needs a second person's approval";

/** The success toast names the account's type: the spec's "Ledger account created successfully", its like for the others. */
const createdTitle = (accountType: string) => `${titleCase(accountType)} account created successfully`;

interface AccountForm {
  accountNumber: string;
  accountName: string;
  accountType: string;
  currency: string;
  currentBalance: string;
  sweepThreshold: string;
  requestReason: string;
  targetLiquidAccount: string;
}

const EMPTY: AccountForm = {
  accountNumber: "",
  accountName: "",
  accountType: "ledger",
  currency: "USD",
  currentBalance: DEFAULT_INITIAL_BALANCE,
  sweepThreshold: "",
  requestReason: "",
  targetLiquidAccount: "",
};

function AccountFields({ form, bind }: Pick<FormBinding<AccountForm>, "form" | "bind">) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Account Number"
        required
        maxLength={MAX_ACCOUNT_NUMBER_LENGTH}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        {...bind("accountNumber")}
      />
      <TextField label="Account Name" required maxLength={MAX_ACCOUNT_NAME_LENGTH} {...bind("accountName")} />
      <SelectField label="Account Type" {...bind("accountType")} options={ACCOUNT_TYPE_OPTIONS} />
      <SelectField label="Currency" {...bind("currency")} options={CURRENCY_OPTIONS} />
      <AmountField label="Initial Balance" currency={form.currency} {...bind("currentBalance")} />
      <AmountField
        label="Sweep Threshold"
        currency={form.currency}
        placeholder="No automatic sweep"
        {...bind("sweepThreshold")}
        hint="The balance above this amount is swept to the target by Auto Sweep"
      />
    </div>
  );
}

/** The account as the server takes it: trimmed texts, blank options as null, a reason only when given. */
function accountBody(form: AccountForm): Record<string, unknown> {
  return {
    accountNumber: form.accountNumber.trim(),
    accountName: form.accountName.trim(),
    accountType: form.accountType,
    currency: form.currency,
    currentBalance: form.currentBalance.trim() || DEFAULT_INITIAL_BALANCE,
    sweepThreshold: form.sweepThreshold.trim() || null,
    targetLiquidAccount: form.targetLiquidAccount || null,
    ...(form.requestReason.trim() ? { requestReason: form.requestReason.trim() } : {}),
  };
}

/** A target of another currency is refused, so a currency change clears it. */
function clearTargetOnCurrency(next: AccountForm, field: keyof AccountForm): AccountForm {
  return field === "currency" ? { ...next, targetLiquidAccount: "" } : next;
}

export function AddAccountDialog({ open, onClose, accounts }: {
  open: boolean;
  onClose: () => void;
  accounts: readonly LedgerAccount[];
}) {
  const { form, errors, setErrors, set, bind, close } = useDialogForm(EMPTY, onClose, { adjust: clearTargetOnCurrency });
  const { toast } = useToast();
  const liquidTargets = useMemo(
    () =>
      accounts.filter((account) => account.accountType === "liquid" && account.currency === form.currency),
    [accounts, form.currency],
  );

  const preview = useApprovalPreview(
    open
      ? { action: "opening_balance", amount: form.currentBalance.trim() || DEFAULT_INITIAL_BALANCE, currency: form.currency }
      : null,
  );
  const toApproval = preview?.outcome === "approval";

  const create = useCreateLedgerAccount((account) => {
    if (account) {
      toast({
        title: createdTitle(account.accountType),
        description: `${accountLabel(account)} opened with ${formatCurrency(account.currentBalance, account.currency)}`,
      });
    }
    close();
  }, (error) => setErrors(serverFieldErrors(error)));

  const submit = () => {
    const next: FormErrors = {
      accountNumber: form.accountNumber.trim() ? undefined : "Required",
      accountName: form.accountName.trim() ? undefined : "Required",
      requestReason: toApproval && !form.requestReason.trim() ? REASON_REQUIRED : undefined,
    };
    setErrors(next);
    if (!Object.values(next).some(Boolean)) create.mutate(accountBody(form));
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      wide
      title="Add Account"
      description="Open a ledger or liquid account; the initial balance is booked as its opening entry."
      onSubmit={submit}
      submitLabel={toApproval ? "Submit for approval" : "Create Account"}
      pendingLabel={toApproval ? "Submitting…" : "Creating…"}
      isPending={create.isPending}
    >
      <AccountFields form={form} bind={bind} />
      <SelectField
        label="Target Liquid Account"
        {...bind("targetLiquidAccount")}
        options={liquidTargets.map((account) => ({ value: account.id, label: accountLabel(account) }))}
        placeholder="None"
        hint={`Liquid accounts in ${form.currency}`}
      />
      {toApproval && (
        <>
          <ApprovalPreviewNote preview={preview} />
          <ApprovalReasonField
            value={form.requestReason}
            onChange={set("requestReason")}
            error={errors.requestReason}
            required
            hint="Required for an initial balance other than 0.00: a second person must approve it"
          />
        </>
      )}
    </FormDialog>
  );
}
