/**
 * Auto Sweep with a confirmation: the dialog first shows what the run would move now
 * (the server plans it; nothing moves), then requests it on confirmation with the plan's id, so the
 * server refuses if balances changed in between and the user sees the new plan instead; a second
 * person approves the request before anything moves.
 */
import { formatCurrency } from "../../lib/format.ts";
import { useEffect } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { Table, TBody, Td, Th, THead, Tr } from "../../components/ui/table.tsx";
import { ApiError } from "../../lib/api.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import { type AutoSweepPlan, useAutoSweep, useAutoSweepPlan } from "./api.ts";

const CONFLICT_STATUS = 409;

function AccountCell({ name, number }: { name: string; number: string }) {
  return (
    <Td>
      <div>{name}</div>
      <div className="font-mono text-xs text-slate-600">{number}</div>
    </Td>
  );
}

function PlannedSweeps({ plan }: { plan: AutoSweepPlan }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        {plan.sweeps.length === 1 ? "This sweep" : `These ${plan.sweeps.length} sweeps`} will run:
      </p>
      <Table label="Planned sweeps">
        <THead>
          <Tr>
            <Th>From</Th>
            <Th>To</Th>
            <Th className="text-right">Amount</Th>
          </Tr>
        </THead>
        <TBody>
          {plan.sweeps.map((sweep) => (
            <Tr key={`${sweep.sourceAccountNumber}>${sweep.targetAccountNumber}`}>
              <AccountCell name={sweep.sourceAccountName} number={sweep.sourceAccountNumber} />
              <AccountCell name={sweep.targetAccountName} number={sweep.targetAccountNumber} />
              <Td className="text-right tabular-nums">
                {formatCurrency(sweep.amount, sweep.currency)}
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <p className="text-sm font-medium text-slate-900" data-testid="auto-sweep-totals">
        Total: {plan.totals.map((total) => formatCurrency(total.amount, total.currency)).join(" · ")}
      </p>
    </div>
  );
}

/** The run, requested with the plan's id; a conflict means the balances moved, so the plan is made again. */
function useConfirmedRun(onClose: () => void, replan: () => void) {
  const { toast } = useToast();
  return useAutoSweep((result) => {
    // A run with moves waits for a second person; nothing moved yet.
    if (result) {
      toast({
        title: "Auto Sweep Completed",
        description: `${result.sweepsExecuted} sweeps executed automatically`,
      });
    }
    onClose();
  }, (error) => {
    if (error instanceof ApiError && error.status === CONFLICT_STATUS) {
      toast({ title: "Balances changed", description: error.serverMessage, variant: "destructive" });
      replan();
      return;
    }
    handleMutationError(error, toast, "Auto Sweep Failed", "Failed to execute automatic sweep");
  });
}

export function AutoSweepDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const plan = useAutoSweepPlan();
  // Planned afresh each time the dialog opens: a plan from an earlier visit is no promise.
  useEffect(() => {
    if (open) void plan.refetch();
  }, [open]);
  const run = useConfirmedRun(onClose, () => void plan.refetch());

  const data = plan.data;
  const nothing = data !== undefined && data.sweeps.length === 0;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      wide
      title="Auto Sweep"
      description="Every active account above its sweep threshold moves the excess to its target liquid account, once a second person with the approver role approves the run."
    >
      {plan.isFetching && <Spinner label="Planning the sweep" />}
      {plan.isError && !plan.isFetching && (
        <p role="alert" className="text-sm text-red-700">
          The sweep could not be planned. Close and try again.
        </p>
      )}
      {data && !plan.isFetching && (
        nothing
          ? <p className="text-sm text-slate-700">Nothing to sweep: no account is above its threshold.</p>
          : <PlannedSweeps plan={data} />
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose}>{nothing ? "Close" : "Cancel"}</Button>
        {!nothing && (
          <Button
            disabled={!data || plan.isFetching || run.isPending}
            onClick={() => data && run.mutate(data.planId)}
          >
            {run.isPending ? "Sweeping…" : "Confirm Auto Sweep"}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
