/**
 * "Add Account" (spec 2.10 and 5): account number and name are required, the initial balance
 * defaults to '0.00' (step 0.01); an optional sweep threshold and target liquid account set up
 * automatic sweeps. Amounts go to the server as the typed decimal strings, which parses them exactly.
 */
import { type FormEvent, useMemo, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import { ACCOUNT_TYPE_OPTIONS, accountLabel, CURRENCY_OPTIONS, formatAmount, type LedgerAccount, MONEY_STEP } from "./types.ts";
import { ApprovalReasonField } from "../../components/approval_reason_field.tsx";
import { useCreateLedgerAccount } from "./api.ts";

const MAX_ACCOUNT_NUMBER_LENGTH = 34;
const MAX_ACCOUNT_NAME_LENGTH = 255;
const DEFAULT_INITIAL_BALANCE = "0.00";

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

type FieldErrors = Partial<Record<keyof AccountForm, string>>;

/** Field messages of a 400/409 answer, so the server's reason shows next to the field. */
function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error && typeof error === "object" && "bodyText" in error)) return {};
  try {
    const body = JSON.parse(String((error as { bodyText: string }).bodyText));
    return body && typeof body.fields === "object" ? body.fields as FieldErrors : {};
  } catch {
    return {};
  }
}

export function AddAccountDialog({ open, onClose, accounts }: {
  open: boolean;
  onClose: () => void;
  accounts: readonly LedgerAccount[];
}) {
  const [form, setForm] = useState<AccountForm>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { toast } = useToast();

  const liquidTargets = useMemo(
    () =>
      accounts.filter((account) => account.accountType === "liquid" && account.currency === form.currency),
    [accounts, form.currency],
  );

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    onClose();
  };

  const create = useCreateLedgerAccount((account) => {
    if (account) {
      toast({
        title: "Ledger account created successfully",
        description: `${accountLabel(account)} opened with ${formatAmount(account.currentBalance, account.currency)}`,
      });
    }
    close();
  }, (error) => setErrors(serverFieldErrors(error)));

  const set = (field: keyof AccountForm) => (value: string) => {
    setForm((current) => ({
      ...current,
      [field]: value,
      // A target of another currency is refused, so a currency change clears it.
      ...(field === "currency" ? { targetLiquidAccount: "" } : {}),
    }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: FieldErrors = {
      accountNumber: form.accountNumber.trim() ? undefined : "Required",
      accountName: form.accountName.trim() ? undefined : "Required",
    };
    setErrors(next);
    if (Object.values(next).some(Boolean) || create.isPending) return;
    create.mutate({
      accountNumber: form.accountNumber.trim(),
      accountName: form.accountName.trim(),
      accountType: form.accountType,
      currency: form.currency,
      currentBalance: form.currentBalance.trim() || DEFAULT_INITIAL_BALANCE,
      sweepThreshold: form.sweepThreshold.trim() || null,
      targetLiquidAccount: form.targetLiquidAccount || null,
      ...(form.requestReason.trim() ? { requestReason: form.requestReason.trim() } : {}),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      title="Add Account"
      description="Open a ledger or liquid account; the initial balance is booked as its opening entry."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Account Number"
            required
            maxLength={MAX_ACCOUNT_NUMBER_LENGTH}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={form.accountNumber}
            onChange={(event) => set("accountNumber")(event.target.value)}
            error={errors.accountNumber}
          />
          <TextField
            label="Account Name"
            required
            maxLength={MAX_ACCOUNT_NAME_LENGTH}
            value={form.accountName}
            onChange={(event) => set("accountName")(event.target.value)}
            error={errors.accountName}
          />
          <SelectField
            label="Account Type"
            value={form.accountType}
            onChange={(event) => set("accountType")(event.target.value)}
            options={ACCOUNT_TYPE_OPTIONS}
            error={errors.accountType}
          />
          <SelectField
            label="Currency"
            value={form.currency}
            onChange={(event) => set("currency")(event.target.value)}
            options={CURRENCY_OPTIONS}
            error={errors.currency}
          />
          <TextField
            label="Initial Balance"
            type="number"
            min="0"
            step={MONEY_STEP}
            inputMode="decimal"
            value={form.currentBalance}
            onChange={(event) => set("currentBalance")(event.target.value)}
            error={errors.currentBalance}
          />
          <TextField
            label="Sweep Threshold"
            type="number"
            min="0"
            step={MONEY_STEP}
            inputMode="decimal"
            placeholder="No automatic sweep"
            value={form.sweepThreshold}
            onChange={(event) => set("sweepThreshold")(event.target.value)}
            error={errors.sweepThreshold}
            hint="The balance above this amount is swept to the target by Auto Sweep"
          />
        </div>
        <SelectField
          label="Target Liquid Account"
          value={form.targetLiquidAccount}
          onChange={(event) => set("targetLiquidAccount")(event.target.value)}
          options={liquidTargets.map((account) => ({ value: account.id, label: accountLabel(account) }))}
          placeholder="None"
          error={errors.targetLiquidAccount}
          hint={`Liquid accounts in ${form.currency}`}
        />
        <ApprovalReasonField
          value={form.requestReason}
          onChange={set("requestReason")}
          error={errors.requestReason}
          hint="Needed for any initial balance other than 0.00: a second person must approve it"
        />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close}>Cancel</Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create Account"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
