/**
 * "Manual Sweep" (spec 2.10 and 5): sources are ledger accounts with a balance above 0, targets are
 * liquid accounts in the source's currency; the amount is required (exact, grouped as typed) and its
 * bounds are left to the server, whose reason a rejection shows. The server's preview says before
 * submitting whether the sweep executes or goes to approval (then the button says "Submit for
 * approval" and the reason is required). Each submission carries an Idempotency-Key, kept while its
 * outcome is unknown (lib/idempotency.ts), so a resubmit after a lost response can never move the money twice.
 */
import { formatCurrency } from "../../lib/format.ts";
import { useMemo } from "react";
import { SelectField, TextAreaField } from "../../components/ui/form.tsx";
import { type ToastInput, useToast } from "../../lib/toast.ts";
import { accountLabel, type BalanceSweep, type LedgerAccount, toMinor } from "./types.ts";
import { AmountField } from "../../components/amount_field.tsx";
import { useManualSweep } from "./api.ts";
import { ApprovalPreviewNote } from "../../components/approval_preview.tsx";
import { type ApprovalPreview, useApprovalPreview } from "../../lib/approval.ts";
import { FormDialog } from "../../components/form_dialog.tsx";
import { type FormBinding, type FormErrors, useDialogForm } from "../../lib/form_state.ts";

const MAX_SWEEP_REASON_LENGTH = 1_000;

interface SweepForm {
  sourceAccountId: string;
  targetAccountId: string;
  sweepAmount: string;
  sweepReason: string;
}

const EMPTY: SweepForm = { sourceAccountId: "", targetAccountId: "", sweepAmount: "", sweepReason: "" };

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
  label: `${accountLabel(account)} · ${formatCurrency(account.currentBalance, account.currency)}`,
});

function SweepFields({ form, bind, accounts, preview }: Pick<FormBinding<SweepForm>, "form" | "bind"> & {
  accounts: readonly LedgerAccount[];
  preview: ApprovalPreview | null;
}) {
  const { sources, targets, sourceCurrency } = useSweepChoices(accounts, form.sourceAccountId);
  const toApproval = preview?.outcome === "approval";
  return (
    <>
      <SelectField
        label="Source Account"
        {...bind("sourceAccountId")}
        options={sources.map(option)}
        placeholder={sources.length === 0 ? "No ledger account holds funds" : "Select a ledger account"}
      />
      <SelectField
        label="Target Account"
        {...bind("targetAccountId")}
        options={targets.map(option)}
        placeholder={targets.length > 0
          ? "Select a liquid account"
          : sourceCurrency
          ? `No liquid account in ${sourceCurrency}`
          : "No liquid account yet"}
      />
      <AmountField label="Sweep Amount" currency={sourceCurrency} {...bind("sweepAmount")} />
      <ApprovalPreviewNote preview={preview} />
      <TextAreaField
        label="Sweep Reason"
        rows={3}
        maxLength={MAX_SWEEP_REASON_LENGTH}
        placeholder="Why the funds are moved"
        required={toApproval}
        hint={toApproval ? "Required: the reason goes with the request to the approver" : undefined}
        {...bind("sweepReason")}
      />
    </>
  );
}

function missingFields(form: SweepForm, toApproval: boolean): FormErrors {
  return {
    sourceAccountId: form.sourceAccountId ? undefined : "Required",
    targetAccountId: form.targetAccountId ? undefined : "Required",
    sweepAmount: form.sweepAmount.trim() ? undefined : "Required",
    sweepReason: toApproval && !form.sweepReason.trim() ? "Give a reason: this sweep needs a second person's approval" : undefined,
  };
}

function sweptToast(sweep: BalanceSweep): ToastInput {
  return {
    title: "Balance sweep executed successfully",
    description: `${formatCurrency(sweep.sweepAmount, sweep.currency)} moved from ${
      accountLabel(sweep.sourceAccount)
    } to ${accountLabel(sweep.targetAccount)}`,
  };
}

export function ManualSweepDialog({ open, onClose, accounts }: {
  open: boolean;
  onClose: () => void;
  accounts: readonly LedgerAccount[];
}) {
  const { form, setErrors, bind, close } = useDialogForm(EMPTY, onClose, {
    adjust: (next, field, current) => {
      // A sweep never converts currency, so a new source drops a target of another currency.
      if (field !== "sourceAccountId") return next;
      const currency = accounts.find((account) => account.id === next.sourceAccountId)?.currency;
      const target = accounts.find((account) => account.id === current.targetAccountId);
      return target && target.currency !== currency ? { ...next, targetAccountId: "" } : next;
    },
  });
  const { toast } = useToast();

  const sweep = useManualSweep((result) => {
    if (result) toast(sweptToast(result));
    close();
  });

  const preview = useApprovalPreview(
    form.sourceAccountId && form.sweepAmount
      ? { action: "sweep", amount: form.sweepAmount, accountId: form.sourceAccountId }
      : null,
  );
  const toApproval = preview?.outcome === "approval";

  const submit = () => {
    const next = missingFields(form, toApproval);
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
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
      submitLabel={toApproval ? "Submit for approval" : "Execute Sweep"}
      pendingLabel={toApproval ? "Submitting…" : "Executing…"}
      isPending={sweep.isPending}
    >
      <SweepFields form={form} bind={bind} accounts={accounts} preview={preview} />
    </FormDialog>
  );
}
