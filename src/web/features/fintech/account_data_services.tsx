/** Spec 2.11 account-data services: Account Verification and Balance Check through Plaid. */
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import type { AccountBalance, AccountVerification } from "./types.ts";
import { useCheckBalance, useVerifyAccount } from "./api.ts";
import { missing, ServiceCard } from "./service_card.tsx";

const balanceText = (amount: string | null, currency: string | null) =>
  amount === null ? "not reported" : formatCurrency(amount, currency ?? "USD");

function VerificationResult({ verification, onUse }: { verification: AccountVerification; onUse: () => void }) {
  return (
    <div className="mt-4 rounded-md border border-slate-200 p-3 text-sm" aria-live="polite" data-testid="verification-result">
      <p className="font-medium text-slate-900">Account verified via {verification.verificationMethod}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-slate-800">
        <dt className="text-slate-600">Account</dt>
        <dd className="font-mono">{verification.accountMask}</dd>
        <dt className="text-slate-600">Routing</dt>
        <dd className="font-mono">{verification.routingNumber}</dd>
        <dt className="text-slate-600">Account ID</dt>
        <dd className="break-all font-mono">{verification.accountId}</dd>
      </dl>
      <Button className="mt-3" variant="outline" size="sm" onClick={onUse}>
        Use for Balance Check
      </Button>
    </div>
  );
}

function AccountVerificationCard({ onUseAccount }: { onUseAccount: (accountId: string) => void }) {
  const { toast } = useToast();
  const [accountNumber, setAccountNumber] = useState("");
  const [routingNumber, setRoutingNumber] = useState("");
  const [verification, setVerification] = useState<AccountVerification | null>(null);
  const verify = useVerifyAccount((result) => {
    setVerification(result);
    setAccountNumber("");
    setRoutingNumber("");
    toast({ title: "Account Verified", description: `Account verified via ${result.verificationMethod}` });
  });
  const submit = () => {
    if (!accountNumber.trim() || !routingNumber.trim()) {
      toast(missing("Please provide both account number and routing number"));
      return;
    }
    verify.mutate({ accountNumber: accountNumber.trim(), routingNumber: routingNumber.trim() });
  };
  return (
    <ServiceCard
      title="Account Verification"
      description="Verify a bank account by its account and ABA routing numbers."
      path="/api/plaid/verify-account"
      onSubmit={submit}
      submitLabel="Verify Account"
      pendingLabel="Verifying…"
      isPending={verify.isPending}
      result={verification && (
        <VerificationResult verification={verification} onUse={() => onUseAccount(verification.accountId)} />
      )}
    >
      <TextField
        label="Account Number"
        inputMode="numeric"
        autoComplete="off"
        value={accountNumber}
        onChange={(event) => setAccountNumber(event.target.value)}
      />
      <TextField
        label="Routing Number"
        inputMode="numeric"
        autoComplete="off"
        maxLength={11}
        value={routingNumber}
        onChange={(event) => setRoutingNumber(event.target.value)}
      />
    </ServiceCard>
  );
}

function BalanceFigures({ balance }: { balance: AccountBalance }) {
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 rounded-md border border-slate-200 p-3 text-sm" aria-live="polite">
      <div>
        <dt className="text-slate-600">Available</dt>
        <dd className="text-lg font-semibold text-slate-900">{balanceText(balance.available, balance.currency)}</dd>
      </div>
      <div>
        <dt className="text-slate-600">Current</dt>
        <dd className="text-lg font-semibold text-slate-900">{balanceText(balance.current, balance.currency)}</dd>
      </div>
    </dl>
  );
}

function BalanceCheckCard({ accountId, setAccountId }: { accountId: string; setAccountId: (id: string) => void }) {
  const { toast } = useToast();
  const [balance, setBalance] = useState<AccountBalance | null>(null);
  // Spec 8: a failed balance check shows no message; only an ended session is acted on.
  const checkBalance = useCheckBalance((result) => {
    setBalance(result);
    toast({
      title: "Balance Retrieved",
      description: `Available: ${balanceText(result.available, result.currency)}, Current: ${
        balanceText(result.current, result.currency)
      }`,
    });
  });
  const submit = () => {
    if (!accountId.trim()) {
      toast(missing("Please provide an account ID", "Missing Account ID"));
      return;
    }
    checkBalance.mutate({ accountId: accountId.trim() });
  };
  return (
    <ServiceCard
      title="Balance Check"
      description="Read an account's available and current balance."
      path="/api/plaid/check-balance"
      onSubmit={submit}
      submitLabel="Check Balance"
      pendingLabel="Checking…"
      isPending={checkBalance.isPending}
      result={balance && <BalanceFigures balance={balance} />}
    >
      <TextField
        label="Account ID"
        autoComplete="off"
        value={accountId}
        onChange={(event) => setAccountId(event.target.value)}
        hint="The account ID returned by Account Verification"
      />
    </ServiceCard>
  );
}

export function AccountDataServices() {
  const [balanceAccountId, setBalanceAccountId] = useState("");
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <AccountVerificationCard onUseAccount={setBalanceAccountId} />
      <BalanceCheckCard accountId={balanceAccountId} setAccountId={setBalanceAccountId} />
    </div>
  );
}
