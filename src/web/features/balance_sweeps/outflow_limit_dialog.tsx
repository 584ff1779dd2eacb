/**
 * The administrator's editor of an account's daily outflow limit: a movement that would take what
 * left the account without a second person that UTC day above it goes to approval, whoever makes
 * it. Blank removes the limit; the amount goes to the server as typed, which parses it exactly.
 */
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { AmountField } from "../../components/amount_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";
import { serverFieldErrors } from "../../lib/form_input.ts";
import { useDialogForm } from "../../lib/form_state.ts";
import { useSetDailyOutflowLimit } from "./api.ts";
import { accountLabel, type LedgerAccount } from "./types.ts";

export function OutflowLimitDialog({ account, onClose }: { account: LedgerAccount; onClose: () => void }) {
  const { form, bind, setErrors, close } = useDialogForm({ limit: account.dailyOutflowLimit ?? "" }, onClose);
  const { toast } = useToast();
  const save = useSetDailyOutflowLimit(account.id, (saved) => {
    if (saved) {
      toast({
        title: "Daily outflow limit saved",
        description: saved.dailyOutflowLimit === null
          ? `${accountLabel(saved)} has no daily outflow limit`
          : `${accountLabel(saved)}: at most ${
            formatCurrency(saved.dailyOutflowLimit, saved.currency)
          } a day leaves it without a second person`,
      });
    }
    close();
  }, (error) => {
    const fields = serverFieldErrors(error);
    setErrors({ limit: fields.dailyOutflowLimit });
  });
  return (
    <FormDialog
      open
      onClose={close}
      title="Daily Outflow Limit"
      description={`${accountLabel(account)}, in ${account.currency}`}
      onSubmit={() => save.mutate(form.limit.trim() || null)}
      submitLabel="Save Limit"
      pendingLabel="Saving…"
      isPending={save.isPending}
    >
      <AmountField
        label="Daily Outflow Limit"
        currency={account.currency}
        placeholder="No limit"
        {...bind("limit")}
        hint="Movements out of this account above this amount in a UTC day need a second person's approval"
      />
    </FormDialog>
  );
}
