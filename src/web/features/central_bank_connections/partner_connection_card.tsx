/**
 * The pre-configured partner of spec 2.9: offered while no connection's partner name contains the
 * association's name. Everything it creates comes from the server's partner configuration; the
 * user confirms first, since it opens a settlement link to another central bank.
 */
import { useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  AUTHENTICATION_METHOD_OPTIONS,
  labelOf,
  MESSAGE_STANDARD_OPTIONS,
  type PartnerConfig,
} from "./types.ts";
import { useEstablishPartner } from "./api.ts";
import { IfAllowed } from "../../components/if_allowed.tsx";
import { DialogActions } from "../../components/dialog_actions.tsx";

export function PartnerConnectionCard({ partner }: { partner: PartnerConfig }) {
  const { toast } = useToast();
  const [confirming, setConfirming] = useState(false);
  const establish = useEstablishPartner((connection) => {
    toast({
      title: `${partner.associationName} connection established`,
      description:
        `${connection.partnerCentralBank} is connected with status ${connection.connectionStatus}; run a test to activate it.`,
    });
    setConfirming(false);
  });

  const headingId = "partner-connection-heading";
  return (
    <section aria-labelledby={headingId} className="mb-6">
      <Card className="border-blue-200 bg-blue-50">
        <CardHeader>
          <CardTitle as="h2">
            <span id={headingId}>Connect to {partner.associationName}</span>
          </CardTitle>
          <CardDescription>
            A pre-configured partner connection: codes, endpoint and credentials come from the partner
            configuration.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-end justify-between gap-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-medium text-slate-700">Partner</dt>
            <dd className="text-slate-900">{partner.partnerCentralBank}</dd>
            <dt className="font-medium text-slate-700">Bank code</dt>
            <dd className="font-mono text-slate-900">{partner.partnerBankCode ?? "—"}</dd>
            <dt className="font-medium text-slate-700">SWIFT code</dt>
            <dd className="font-mono text-slate-900">{partner.partnerSwiftCode ?? "—"}</dd>
            <dt className="font-medium text-slate-700">Messaging</dt>
            <dd className="text-slate-900">
              {labelOf(MESSAGE_STANDARD_OPTIONS, partner.messageStandard)} in {partner.settlementCurrency},
              {" "}
              {labelOf(AUTHENTICATION_METHOD_OPTIONS, partner.authenticationMethod)}
            </dd>
            <dt className="font-medium text-slate-700">Endpoint</dt>
            <dd className="break-all font-mono text-slate-900">{partner.apiEndpoint ?? "—"}</dd>
          </dl>
          <IfAllowed method="POST" path="/api/establish-loc-connection">
            <Button onClick={() => setConfirming(true)} disabled={establish.isPending}>
              {`Establish ${partner.associationName} Connection`}
            </Button>
          </IfAllowed>
          <Dialog
            open={confirming}
            onClose={() => setConfirming(false)}
            title={`Establish a connection to ${partner.partnerCentralBank}?`}
            description={`The connection uses the partner configuration's endpoint and credentials and settles in ${partner.settlementCurrency}.`}
          >
            <DialogActions
              className="flex flex-wrap justify-end gap-2"
              onCancel={() => setConfirming(false)}
              isPending={establish.isPending}
              label="Establish Connection"
              pendingLabel="Establishing…"
              onConfirm={() => establish.mutate()}
            />
          </Dialog>
        </CardContent>
      </Card>
    </section>
  );
}
