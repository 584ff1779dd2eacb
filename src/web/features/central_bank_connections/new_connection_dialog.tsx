/**
 * "New Connection" (spec 2.9 and 5): the partner is required; credentials must parse as a JSON
 * object, and when blank the default built from connection type, message standard and
 * authentication method is sent; the daily limit goes as a number or null.
 */
import { validateBic } from "../../../domain/bic.ts";
import { defaultCredentialsConfig } from "../../../domain/connection_credentials.ts";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  AUTHENTICATION_METHOD_OPTIONS,
  CONNECTION_TYPE_OPTIONS,
  CURRENCY_OPTIONS,
  MESSAGE_STANDARD_OPTIONS,
} from "./types.ts";
import { useCreateConnection } from "./api.ts";
import { type FormBinding, useDialogForm } from "../../lib/form_state.ts";
import { type Parsed, parseJsonObject } from "../../lib/form_input.ts";
import { BicField } from "../../components/bic_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";
import { AmountField } from "../../components/amount_field.tsx";

const MAX_PARTNER_NAME_LENGTH = 255;
const MAX_PARTNER_BANK_CODE_LENGTH = 20;
const MAX_API_ENDPOINT_LENGTH = 500;

interface ConnectionForm {
  partnerCentralBank: string;
  connectionType: string;
  partnerBankCode: string;
  partnerSwiftCode: string;
  messageStandard: string;
  settlementCurrency: string;
  dailySettlementLimit: string;
  apiEndpoint: string;
  authenticationMethod: string;
  credentialsConfig: string;
}

const EMPTY: ConnectionForm = {
  partnerCentralBank: "",
  connectionType: "correspondent",
  partnerBankCode: "",
  partnerSwiftCode: "",
  messageStandard: "iso20022",
  settlementCurrency: "USD",
  dailySettlementLimit: "",
  apiEndpoint: "",
  authenticationMethod: "api_key",
  credentialsConfig: "",
};

/** Whole units with at most 2 decimals: what decimal(15,2) holds exactly. */
const LIMIT_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

function parseLimit(text: string): Parsed<number | null> {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  if (!LIMIT_PATTERN.test(trimmed)) {
    return { ok: false, message: "Enter an amount of 0 or more with at most 2 decimals, or leave blank" };
  }
  return { ok: true, value: Number(trimmed) };
}

function PartnerFields({ form, set, bind }: FormBinding<ConnectionForm>) {
  const bic = form.partnerSwiftCode.length > 0 ? validateBic(form.partnerSwiftCode) : null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label="Partner Central Bank" required maxLength={MAX_PARTNER_NAME_LENGTH} {...bind("partnerCentralBank")} />
      <SelectField label="Connection Type" {...bind("connectionType")} options={CONNECTION_TYPE_OPTIONS} />
      <TextField
        label="Partner Bank Code"
        maxLength={MAX_PARTNER_BANK_CODE_LENGTH}
        autoComplete="off"
        {...bind("partnerBankCode")}
      />
      <BicField label="Partner SWIFT Code" value={form.partnerSwiftCode} onValue={set("partnerSwiftCode")} bic={bic} />
      <SelectField label="Message Standard" {...bind("messageStandard")} options={MESSAGE_STANDARD_OPTIONS} />
      <SelectField label="Settlement Currency" {...bind("settlementCurrency")} options={CURRENCY_OPTIONS} />
      <AmountField
        label="Daily Settlement Limit"
        currency={form.settlementCurrency}
        placeholder="No limit"
        {...bind("dailySettlementLimit")}
        hint="Blank: no limit"
      />
      <SelectField label="Authentication Method" {...bind("authenticationMethod")} options={AUTHENTICATION_METHOD_OPTIONS} />
    </div>
  );
}

/** The connection as the server takes it: optional texts as null, blank credentials as the default. */
function connectionBody(form: ConnectionForm, limit: number | null, credentials: Record<string, unknown> | null) {
  return {
    partnerCentralBank: form.partnerCentralBank,
    connectionType: form.connectionType,
    partnerBankCode: form.partnerBankCode.trim() || null,
    partnerSwiftCode: form.partnerSwiftCode.trim() || null,
    messageStandard: form.messageStandard,
    settlementCurrency: form.settlementCurrency,
    dailySettlementLimit: limit,
    apiEndpoint: form.apiEndpoint.trim() || null,
    authenticationMethod: form.authenticationMethod,
    credentialsConfig: credentials ?? defaultCredentialsConfig(form),
  };
}

function CredentialsField({ value, error, onValue }: {
  value: string;
  error: string | undefined;
  onValue: (value: string) => void;
}) {
  return (
    <TextAreaField
      label="Credentials (JSON)"
      rows={4}
      spellCheck={false}
      autoComplete="off"
      className="font-mono"
      placeholder='{"apiKey": "…"}'
      value={value}
      onChange={(event) => onValue(event.target.value)}
      error={error}
      hint="Stored encrypted and shown masked. Blank: a default from the connection type, message standard and authentication method"
    />
  );
}

export function NewConnectionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const state = useDialogForm<ConnectionForm>(EMPTY, onClose);
  const { form, errors, setErrors, set, bind, close } = state;
  const { toast } = useToast();

  const create = useCreateConnection((connection) => {
    toast({
      title: "Central bank connection created successfully",
      description: `${connection.partnerCentralBank} added with status ${connection.connectionStatus}`,
    });
    close();
  });

  const bic = form.partnerSwiftCode.length > 0 ? validateBic(form.partnerSwiftCode) : null;
  const canSubmit = form.partnerCentralBank.trim() !== "" && (bic === null || bic.ok) && !create.isPending;

  const submit = () => {
    const credentials = parseJsonObject(form.credentialsConfig, "Credentials", '{"apiKey": "…"}');
    const limit = parseLimit(form.dailySettlementLimit);
    setErrors({
      credentialsConfig: credentials.ok ? undefined : credentials.message,
      dailySettlementLimit: limit.ok ? undefined : limit.message,
    });
    if (!credentials.ok || !limit.ok) return;
    create.mutate(connectionBody(form, limit.value, credentials.value));
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      wide
      title="New Connection"
      description="Links this central bank to a partner central bank for settlement messaging."
      onSubmit={submit}
      submitLabel="Create Connection"
      pendingLabel="Creating…"
      isPending={create.isPending}
      canSubmit={canSubmit}
    >
      <PartnerFields {...state} />
      <TextField
        label="API Endpoint"
        type="url"
        maxLength={MAX_API_ENDPOINT_LENGTH}
        autoComplete="off"
        placeholder="https://api.partner-bank.example/iso20022"
        {...bind("apiEndpoint")}
        hint="Used by the connection test; http or https"
      />
      <CredentialsField
        value={form.credentialsConfig}
        error={errors.credentialsConfig}
        onValue={set("credentialsConfig")}
      />
    </FormDialog>
  );
}
