/**
 * A user's single sign-on identities (administrators): an identity is linked by the provider's
 * issuer and subject, never by e-mail address, and unlinked here too. Break-glass administrators
 * (the administrator role with a local password) are never linked: the server refuses it.
 */
import { type FormEvent, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { TextField } from "../../components/ui/form.tsx";
import { DialogActions } from "../../components/dialog_actions.tsx";
import { ApiError, apiJson } from "../../lib/api.ts";
import { formatDate } from "../../lib/format.ts";
import { useApiMutation, useApprovableMutation } from "../../lib/mutation.ts";
import { AdministrationReasonField } from "../../components/approval_reason_field.tsx";
import { type PendingApproval, withRequestReason } from "../../lib/approval.ts";
import { useDualControlInForce } from "../../lib/dual_control.ts";
import { useToast } from "../../lib/toast.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import type { IdentityView } from "../../../server/features/identities/service.ts";
import type { StaffUser } from "./api.ts";

interface IdentityList {
  configuredIssuer: string | null;
  identities: IdentityView[];
}

type Identity = Pick<IdentityView, "issuer" | "subject">;
/** A link gives the provider the account's sign-in: under dual control it carries the maker's reason. */
type LinkInput = Identity & { requestReason: string };

function useIdentityMutations(path: string, onLinked: () => void, onFieldErrors: (fields: Record<string, string>) => void) {
  const { toast } = useToast();
  const link = useApprovableMutation({
    mutationFn: ({ requestReason, ...identity }: LinkInput) =>
      apiJson<IdentityView | PendingApproval>("POST", path, withRequestReason({ ...identity }, requestReason)),
    refresh: (queryClient) => queryClient.invalidateQueries({ queryKey: [path] }),
    onDone: (linked) => {
      if (linked) toast({ title: "Identity linked", description: `${linked.subject} at ${linked.issuer}` });
      onLinked();
    },
    onError: (error) => {
      const body = error instanceof ApiError && (error.status === 400 || error.status === 409)
        ? JSON.parse(error.bodyText)
        : null;
      // A refusal about the issuer or subject shows at its field; one about the user (break-glass) as a toast.
      const fields = body?.fields ?? (body?.field === "issuer" || body?.field === "subject"
        ? { [body.field]: body.message }
        : null);
      if (fields) onFieldErrors(fields);
      else handleMutationError(error, toast, "Failed to link the identity");
    },
  });
  const unlink = useApiMutation({
    mutationFn: (identity: Identity) => apiJson<void>("DELETE", path, identity),
    invalidates: [path],
    errorTitle: "Failed to unlink the identity",
    onSuccess: () => toast({ title: "Identity unlinked; sessions opened through it ended" }),
  });
  return { link, unlink };
}

function IdentitiesForm({ user, onClose }: { user: StaffUser; onClose: () => void }) {
  const path = `/api/users/${user.id}/identities`;
  const { data } = useQuery<IdentityList>({ queryKey: [path] });
  const [issuer, setIssuer] = useState<string | null>(null);
  const [subject, setSubject] = useState("");
  const [requestReason, setRequestReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const inForce = useDualControlInForce();
  const { link, unlink } = useIdentityMutations(path, () => {
    setSubject("");
    setRequestReason("");
  }, setErrors);
  const shownIssuer = issuer ?? data?.configuredIssuer ?? "";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (!link.isPending) link.mutate({ issuer: shownIssuer, subject, requestReason });
  };
  const identities = data?.identities ?? [];
  return (
    <div className="space-y-4">
      {identities.length === 0
        ? <p className="text-sm text-slate-600">No provider identity is linked.</p>
        : (
          <ul className="space-y-2" aria-label="Linked identities">
            {identities.map((identity) => (
              <li key={`${identity.issuer} ${identity.subject}`} className="flex items-start justify-between gap-2 text-sm">
                <span className="break-all">
                  <span className="font-mono text-slate-900">{identity.subject}</span>
                  <span className="block text-xs text-slate-600">
                    {identity.issuer} · last sign-in {formatDate(identity.lastSignInAt)}
                  </span>
                </span>
                <Button changes
                  size="sm"
                  variant="destructive"
                  disabled={unlink.isPending}
                  onClick={() => unlink.mutate({ issuer: identity.issuer, subject: identity.subject })}
                >
                  Unlink
                </Button>
              </li>
            ))}
          </ul>
        )}
      <form onSubmit={submit} className="space-y-4">
        <TextField label="Issuer" required maxLength={2048} value={shownIssuer} error={errors.issuer}
          onChange={(event) => setIssuer(event.target.value)} />
        <TextField label="Subject" required maxLength={255} value={subject} error={errors.subject}
          hint="The provider's subject (sub) for this person; a refused sign-in page shows it."
          onChange={(event) => setSubject(event.target.value)} />
        <AdministrationReasonField value={requestReason} onChange={setRequestReason} error={errors.requestReason}
          asked={inForce} />
        <DialogActions onCancel={onClose} isPending={link.isPending} label="Link identity" pendingLabel="Linking…" />
      </form>
    </div>
  );
}

export function IdentitiesDialog({ user, onClose }: { user: StaffUser | null; onClose: () => void }) {
  return (
    <Dialog
      open={user !== null}
      onClose={onClose}
      title={`Sign-in identities of ${user?.email ?? ""}`}
      description="Single sign-on lands on this user only through an identity linked here, never by e-mail address. The provider's role mapping then manages the user's roles."
    >
      {user && <IdentitiesForm key={user.id} user={user} onClose={onClose} />}
    </Dialog>
  );
}
