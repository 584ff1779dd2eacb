/**
 * "Manual Sweep" (spec 2.10 and 5): sources are ledger accounts with a balance above 0, targets are
 * liquid accounts in the source's currency; the amount is required (step 0.01) and its bounds are
 * left to the server, whose reason a rejection shows. Each submission carries an Idempotency-Key, kept while no answer has
 * arrived, so a resubmit after a lost response can never move the money twice.
 */
import { type FormEvent, useMemo, useState } from "react";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { ApiError } from "../../lib/api.ts";
import { type ToastInput, useToast } from "../../lib/toast.ts";
import { accountLabel, type BalanceSweep, formatAmount, type LedgerAccount, MONEY_STEP, toMinor } from "./types.ts";
import { useManualSweep } from "./api.ts";
import { FormDialog } from "../../components/form_dialog.tsx";

const MAX_SWEEP_REASON_LENGTH = 1_000;

interface SweepForm {
  sourceAccountId: string;
  targetAccountId: string;
  sweepAmount: string;
  sweepReason: string;
}

const EMPTY: SweepForm = { sourceAccountId: "", targetAccountId: "", sweepAmount: "", sweepReason: "" };

type FieldErrors = Partial<Record<keyof SweepForm, string>>;

/** Sources are ledger accounts holding funds; a sweep never converts currency, so targets are liquid accounts in the source's. */
function useSweepChoices(accounts: readonly LedgerAccount[], sourceAccountId: string) {
  const sources = useMemo(
    () =>
      accounts.filter((account) => account.accountType === "ledger" && toMinor(account.currentBalance) > 0n),
    [accounts],
  );
  const sourceCurrency = accounts.find((account) => account.id === sourceAccountId)?.currency;
  const targets = useMemo(
    () =>
      accounts.filter((account) =>
        account.accountType === "liquid" && (sourceCurrency === undefined || account.currency === sourceCurrency)
      ),
    [accounts, sourceCurrency],
  );
  return { sources, targets, sourceCurrency };
}

const option = (account: LedgerAccount) => ({
  value: account.id,
  label: `${accountLabel(account)} · ${formatAmount(account.currentBalance, account.currency)}`,
});

function SweepFields({ form, errors, set, accounts }: {
  form: SweepForm;
  errors: FieldErrors;
  set: (field: keyof SweepForm) => (value: string) => void;
  accounts: readonly LedgerAccount[];
}) {
  const { sources, targets, sourceCurrency } = useSweepChoices(accounts, form.sourceAccountId);
  return (
    <>
      <SelectField
        label="Source Account"
        value={form.sourceAccountId}
        onChange={(event) => set("sourceAccountId")(event.target.value)}
        options={sources.map(option)}
        placeholder={sources.length === 0 ? "No ledger account holds funds" : "Select a ledger account"}
        error={errors.sourceAccountId}
      />
      <SelectField
        label="Target Account"
        value={form.targetAccountId}
        onChange={(event) => set("targetAccountId")(event.target.value)}
        options={targets.map(option)}
        placeholder={targets.length > 0
          ? "Select a liquid account"
          : sourceCurrency
          ? `No liquid account in ${sourceCurrency}`
          : "No liquid account yet"}
        error={errors.targetAccountId}
      />
      <TextField
        label="Sweep Amount"
        type="number"
        step={MONEY_STEP}
        inputMode="decimal"
        placeholder="0.00"
        value={form.sweepAmount}
        onChange={(event) => set("sweepAmount")(event.target.value)}
        error={errors.sweepAmount}
      />
      <TextAreaField
        label="Sweep Reason"
        rows={3}
        maxLength={MAX_SWEEP_REASON_LENGTH}
        placeholder="Why the funds are moved"
        value={form.sweepReason}
        onChange={(event) => set("sweepReason")(event.target.value)}
      />
    </>
  );
}

function missingFields(form: SweepForm): FieldErrors {
  return {
    sourceAccountId: form.sourceAccountId ? undefined : "Required",
    targetAccountId: form.targetAccountId ? undefined : "Required",
    sweepAmount: form.sweepAmount.trim() ? undefined : "Required",
  };
}

function sweptToast(sweep: BalanceSweep): ToastInput {
  return {
    title: "Balance sweep executed successfully",
    description: `${formatAmount(sweep.sweepAmount, sweep.currency)} moved from ${
      accountLabel(sweep.sourceAccount)
    } to ${accountLabel(sweep.targetAccount)}`,
  };
}

export function ManualSweepDialog({ open, onClose, accounts }: {
  open: boolean;
  onClose: () => void;
  accounts: readonly LedgerAccount[];
}) {
  const [form, setForm] = useState<SweepForm>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const { toast } = useToast();

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    setIdempotencyKey(crypto.randomUUID());
    onClose();
  };

  const sweep = useManualSweep(idempotencyKey, (result) => {
    if (result) toast(sweptToast(result));
    close();
  }, (error) => {
    // The server answered, so this request is settled: a corrected resubmit is a new request.
    if (error instanceof ApiError) setIdempotencyKey(crypto.randomUUID());
  });

  const set = (field: keyof SweepForm) => (value: string) => {
    setForm((current) => {
      const next = { ...current, [field]: value };
      if (field === "sourceAccountId") {
        const currency = accounts.find((account) => account.id === value)?.currency;
        const target = accounts.find((account) => account.id === current.targetAccountId);
        if (target && target.currency !== currency) next.targetAccountId = "";
      }
      return next;
    });
    setErrors((current) => ({ ...current, [field]: undefined }));
    setIdempotencyKey(crypto.randomUUID());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = missingFields(form);
    setErrors(next);
    if (Object.values(next).some(Boolean) || sweep.isPending) return;
    sweep.mutate({
      sourceAccountId: form.sourceAccountId,
      targetAccountId: form.targetAccountId,
      sweepAmount: form.sweepAmount.trim(),
      sweepType: "manual",
      sweepReason: form.sweepReason.trim() || null,
    });
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      title="Manual Sweep"
      description="Move funds from a ledger account to a liquid account of the same currency."
      onSubmit={submit}
      submitLabel="Execute Sweep"
      pendingLabel="Executing…"
      isPending={sweep.isPending}
    >
      <SweepFields form={form} errors={errors} set={set} accounts={accounts} />
    </FormDialog>
  );
}
