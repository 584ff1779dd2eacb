/** Spec 2.11 card payment services: Visa Direct Transfer and Visa Push Payment. */
import { useState } from "react";
import { TextField } from "../../components/ui/form.tsx";
import { formatCurrency } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import { MERCHANT_LABEL, VISA_DIRECT_CURRENCY } from "./types.ts";
import { useDirectTransfer, usePushPayment } from "./api.ts";
import { missing, ServiceCard } from "./service_card.tsx";

const TRANSFER_DEFAULTS = { recipientCard: "", amount: "" };
const PAYMENT_DEFAULTS = { accountId: "", cardNumber: "", amount: "" };

function DirectTransferCard() {
  const { toast } = useToast();
  const [transfer, setTransfer] = useState(TRANSFER_DEFAULTS);
  const sendTransfer = useDirectTransfer((result) => {
    // Card numbers do not linger in the form once the transfer is done.
    setTransfer(TRANSFER_DEFAULTS);
    toast({
      title: "Transfer Completed",
      description: `Transfer ID: ${result.transferId}, Amount: ${formatCurrency(result.amount, result.currency)}`,
    });
  });
  const submit = () => {
    if (!transfer.recipientCard.trim() || !transfer.amount.trim()) {
      toast(missing("Please provide recipient card and amount"));
      return;
    }
    sendTransfer.mutate({
      recipientCard: transfer.recipientCard.trim(),
      amount: transfer.amount.trim(),
      currency: VISA_DIRECT_CURRENCY,
    });
  };
  return (
    <ServiceCard
      title="Visa Direct Transfer"
      description={`Push funds to a Visa card, in ${VISA_DIRECT_CURRENCY}.`}
      path="/api/visa/direct-transfer"
      onSubmit={submit}
      submitLabel="Send Transfer"
      pendingLabel="Sending…"
      isPending={sendTransfer.isPending}
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
    </ServiceCard>
  );
}

function PushPaymentCard() {
  const { toast } = useToast();
  const [payment, setPayment] = useState(PAYMENT_DEFAULTS);
  // Spec 8: a failed push payment shows no message; only an ended session is acted on.
  const sendPayment = usePushPayment((result) => {
    setPayment(PAYMENT_DEFAULTS);
    toast({ title: "Payment Approved", description: `Payment ID: ${result.paymentId}, Auth Code: ${result.authCode}` });
  });
  const submit = () => {
    if (!payment.accountId.trim() || !payment.cardNumber.trim() || !payment.amount.trim()) {
      toast(missing("Please provide account ID, card number, and amount"));
      return;
    }
    sendPayment.mutate({
      accountId: payment.accountId.trim(),
      cardNumber: payment.cardNumber.trim(),
      amount: payment.amount.trim(),
      merchantInfo: MERCHANT_LABEL,
    });
  };
  const field = (name: keyof typeof PAYMENT_DEFAULTS) => ({
    value: payment[name],
    onChange: (event: { target: { value: string } }) => setPayment({ ...payment, [name]: event.target.value }),
  });
  return (
    <ServiceCard
      title="Visa Push Payment"
      description={`Pay a card from an account, as merchant “${MERCHANT_LABEL}”.`}
      path="/api/visa/push-payment"
      onSubmit={submit}
      submitLabel="Process Payment"
      pendingLabel="Processing…"
      isPending={sendPayment.isPending}
    >
      <TextField label="Account ID" autoComplete="off" {...field("accountId")} />
      <TextField label="Card Number" inputMode="numeric" autoComplete="off" {...field("cardNumber")} />
      <TextField label="Payment Amount" type="number" min={0.01} step={0.01} {...field("amount")} />
    </ServiceCard>
  );
}

export function CardPaymentServices() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <DirectTransferCard />
      <PushPaymentCard />
    </div>
  );
}
