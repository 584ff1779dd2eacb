/** Spec 2.11 account-data services: Account Verification and Balance Check through Plaid. */
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import type { AccountBalance, AccountVerification } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useCheckBalance, useVerifyAccount } from "./api.ts";

const balanceText = (amount: string | null, currency: string | null) =>
  amount === null ? "not reported" : formatCurrency(amount, currency ?? "USD");

export function AccountDataServices() {
  const { toast } = useToast();
  const [accountNumber, setAccountNumber] = useState("");
  const [routingNumber, setRoutingNumber] = useState("");
  const [balanceAccountId, setBalanceAccountId] = useState("");
  const [verification, setVerification] = useState<AccountVerification | null>(null);
  const [balance, setBalance] = useState<AccountBalance | null>(null);

  const verify = useVerifyAccount((result) => {
    setVerification(result);
    setAccountNumber("");
    setRoutingNumber("");
    toast({ title: "Account Verified", description: `Account verified via ${result.verificationMethod}` });
  });

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

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle as="h3">Account Verification</CardTitle>
          <CardDescription>Verify a bank account by its account and ABA routing numbers.</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!accountNumber.trim() || !routingNumber.trim()) {
                toast({
                  title: "Missing Information",
                  description: "Please provide both account number and routing number",
                  variant: "destructive",
                });
                return;
              }
              verify.mutate({ accountNumber: accountNumber.trim(), routingNumber: routingNumber.trim() });
            }}
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
            <IfAllowed method="POST" path="/api/plaid/verify-account">
              <Button type="submit" disabled={verify.isPending}>{verify.isPending ? "Verifying…" : "Verify Account"}</Button>
            </IfAllowed>
          </form>
          {verification && (
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
              <Button className="mt-3" variant="outline" size="sm" onClick={() => setBalanceAccountId(verification.accountId)}>
                Use for Balance Check
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Balance Check</CardTitle>
          <CardDescription>Read an account's available and current balance.</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!balanceAccountId.trim()) {
                toast({ title: "Missing Account ID", description: "Please provide an account ID", variant: "destructive" });
                return;
              }
              checkBalance.mutate({ accountId: balanceAccountId.trim() });
            }}
          >
            <TextField
              label="Account ID"
              autoComplete="off"
              value={balanceAccountId}
              onChange={(event) => setBalanceAccountId(event.target.value)}
              hint="The account ID returned by Account Verification"
            />
            <IfAllowed method="POST" path="/api/plaid/check-balance">
              <Button type="submit" disabled={checkBalance.isPending}>
                {checkBalance.isPending ? "Checking…" : "Check Balance"}
              </Button>
            </IfAllowed>
          </form>
          {balance && (
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
          )}
        </CardContent>
      </Card>
    </div>
  );
}
