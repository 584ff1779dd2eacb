/** Spec 2.11 card payment services: Visa Direct Transfer and Visa Push Payment. */
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { MERCHANT_LABEL, VISA_DIRECT_CURRENCY } from "./types.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { useDirectTransfer, usePushPayment } from "./api.ts";

const TRANSFER_DEFAULTS = { recipientCard: "", amount: "" };
const PAYMENT_DEFAULTS = { accountId: "", cardNumber: "", amount: "" };

export function CardPaymentServices() {
  const { toast } = useToast();
  const [transfer, setTransfer] = useState(TRANSFER_DEFAULTS);
  const [payment, setPayment] = useState(PAYMENT_DEFAULTS);

  const sendTransfer = useDirectTransfer((result) => {
    // Card numbers do not linger in the form once the transfer is done.
    setTransfer(TRANSFER_DEFAULTS);
    toast({
      title: "Transfer Completed",
      description: `Transfer ID: ${result.transferId}, Amount: ${formatCurrency(result.amount, result.currency)}`,
    });
  });

  // Spec 8: a failed push payment shows no message; only an ended session is acted on.
  const sendPayment = usePushPayment((result) => {
    setPayment(PAYMENT_DEFAULTS);
    toast({ title: "Payment Approved", description: `Payment ID: ${result.paymentId}, Auth Code: ${result.authCode}` });
  });

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle as="h3">Visa Direct Transfer</CardTitle>
          <CardDescription>Push funds to a Visa card, in {VISA_DIRECT_CURRENCY}.</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!transfer.recipientCard.trim() || !transfer.amount.trim()) {
                toast({ title: "Missing Information", description: "Please provide recipient card and amount", variant: "destructive" });
                return;
              }
              sendTransfer.mutate({
                recipientCard: transfer.recipientCard.trim(),
                amount: transfer.amount.trim(),
                currency: VISA_DIRECT_CURRENCY,
              });
            }}
          >
            <TextField
              label="Recipient Card"
              inputMode="numeric"
              autoComplete="off"
              value={transfer.recipientCard}
              onChange={(event) => setTransfer({ ...transfer, recipientCard: event.target.value })}
            />
            <TextField
              label={`Amount (${VISA_DIRECT_CURRENCY})`}
              type="number"
              min={0.01}
              step={0.01}
              value={transfer.amount}
              onChange={(event) => setTransfer({ ...transfer, amount: event.target.value })}
            />
            <IfAllowed method="POST" path="/api/visa/direct-transfer">
              <Button type="submit" disabled={sendTransfer.isPending}>
                {sendTransfer.isPending ? "Sending…" : "Send Transfer"}
              </Button>
            </IfAllowed>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Visa Push Payment</CardTitle>
          <CardDescription>Pay a card from an account, as merchant “{MERCHANT_LABEL}”.</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!payment.accountId.trim() || !payment.cardNumber.trim() || !payment.amount.trim()) {
                toast({
                  title: "Missing Information",
                  description: "Please provide account ID, card number, and amount",
                  variant: "destructive",
                });
                return;
              }
              sendPayment.mutate({
                accountId: payment.accountId.trim(),
                cardNumber: payment.cardNumber.trim(),
                amount: payment.amount.trim(),
                merchantInfo: MERCHANT_LABEL,
              });
            }}
          >
            <TextField
              label="Account ID"
              autoComplete="off"
              value={payment.accountId}
              onChange={(event) => setPayment({ ...payment, accountId: event.target.value })}
            />
            <TextField
              label="Card Number"
              inputMode="numeric"
              autoComplete="off"
              value={payment.cardNumber}
              onChange={(event) => setPayment({ ...payment, cardNumber: event.target.value })}
            />
            <TextField
              label="Payment Amount"
              type="number"
              min={0.01}
              step={0.01}
              value={payment.amount}
              onChange={(event) => setPayment({ ...payment, amount: event.target.value })}
            />
            <IfAllowed method="POST" path="/api/visa/push-payment">
              <Button type="submit" disabled={sendPayment.isPending}>
                {sendPayment.isPending ? "Processing…" : "Process Payment"}
              </Button>
            </IfAllowed>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
