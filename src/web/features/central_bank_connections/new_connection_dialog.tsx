/**
 * "New Connection" (spec 2.9 and 5): the partner is required; credentials must parse as a JSON
 * object, and when blank the default built from connection type, message standard and
 * authentication method is sent; the daily limit goes as a number or null.
 */
import { type FormEvent, useState } from "react";
import { BIC_LENGTH_WITH_BRANCH, validateBic } from "../../../domain/bic.ts";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { defaultCredentialsConfig } from "../../../domain/connection_credentials.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  AUTHENTICATION_METHOD_OPTIONS,
  CONNECTION_TYPE_OPTIONS,
  CURRENCY_OPTIONS,
  MESSAGE_STANDARD_OPTIONS,
} from "./types.ts";
import { useCreateConnection } from "./api.ts";

const MAX_PARTNER_NAME_LENGTH = 255;
const MAX_PARTNER_BANK_CODE_LENGTH = 20;
const MAX_API_ENDPOINT_LENGTH = 500;
const MONEY_STEP = "0.01";

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

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseCredentials(text: string): Parsed<Record<string, unknown> | null> {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    const value = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, message: 'Credentials must be a JSON object, like {"apiKey": "…"}' };
    }
    return { ok: true, value };
  } catch {
    return { ok: false, message: "Credentials must be valid JSON" };
  }
}

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

export function NewConnectionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<ConnectionForm>(EMPTY);
  const [errors, setErrors] = useState<{ credentialsConfig?: string; dailySettlementLimit?: string }>({});
  const { toast } = useToast();

  const close = () => {
    setForm(EMPTY);
    setErrors({});
    onClose();
  };

  const create = useCreateConnection((connection) => {
    toast({
      title: "Central bank connection created successfully",
      description: `${connection.partnerCentralBank} added with status ${connection.connectionStatus}`,
    });
    close();
  });

  const set = (field: keyof ConnectionForm) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));
  const bic = form.partnerSwiftCode.length > 0 ? validateBic(form.partnerSwiftCode) : null;
  const canSubmit = form.partnerCentralBank.trim() !== "" && (bic === null || bic.ok) && !create.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const credentials = parseCredentials(form.credentialsConfig);
    const limit = parseLimit(form.dailySettlementLimit);
    setErrors({
      credentialsConfig: credentials.ok ? undefined : credentials.message,
      dailySettlementLimit: limit.ok ? undefined : limit.message,
    });
    if (!credentials.ok || !limit.ok || !canSubmit) return;
    create.mutate({
      partnerCentralBank: form.partnerCentralBank,
      connectionType: form.connectionType,
      partnerBankCode: form.partnerBankCode.trim() || null,
      partnerSwiftCode: form.partnerSwiftCode.trim() || null,
      messageStandard: form.messageStandard,
      settlementCurrency: form.settlementCurrency,
      dailySettlementLimit: limit.value,
      apiEndpoint: form.apiEndpoint.trim() || null,
      authenticationMethod: form.authenticationMethod,
      credentialsConfig: credentials.value ?? defaultCredentialsConfig(form),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      title="New Connection"
      description="Links this central bank to a partner central bank for settlement messaging."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Partner Central Bank"
            required
            maxLength={MAX_PARTNER_NAME_LENGTH}
            value={form.partnerCentralBank}
            onChange={(event) => set("partnerCentralBank")(event.target.value)}
          />
          <SelectField
            label="Connection Type"
            value={form.connectionType}
            onChange={(event) => set("connectionType")(event.target.value)}
            options={CONNECTION_TYPE_OPTIONS}
          />
          <TextField
            label="Partner Bank Code"
            maxLength={MAX_PARTNER_BANK_CODE_LENGTH}
            autoComplete="off"
            value={form.partnerBankCode}
            onChange={(event) => set("partnerBankCode")(event.target.value)}
          />
          <TextField
            label="Partner SWIFT Code"
            maxLength={BIC_LENGTH_WITH_BRANCH}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={form.partnerSwiftCode}
            onChange={(event) => set("partnerSwiftCode")(asciiUpperCase(event.target.value).trim())}
            error={bic !== null && !bic.ok ? bic.error.message : null}
            hint="8 or 11 characters"
          />
          <SelectField
            label="Message Standard"
            value={form.messageStandard}
            onChange={(event) => set("messageStandard")(event.target.value)}
            options={MESSAGE_STANDARD_OPTIONS}
          />
          <SelectField
            label="Settlement Currency"
            value={form.settlementCurrency}
            onChange={(event) => set("settlementCurrency")(event.target.value)}
            options={CURRENCY_OPTIONS}
          />
          <TextField
            label="Daily Settlement Limit"
            type="number"
            min="0"
            step={MONEY_STEP}
            inputMode="decimal"
            value={form.dailySettlementLimit}
            onChange={(event) => set("dailySettlementLimit")(event.target.value)}
            error={errors.dailySettlementLimit}
            hint="Blank: no limit"
          />
          <SelectField
            label="Authentication Method"
            value={form.authenticationMethod}
            onChange={(event) => set("authenticationMethod")(event.target.value)}
            options={AUTHENTICATION_METHOD_OPTIONS}
          />
        </div>
        <TextField
          label="API Endpoint"
          type="url"
          maxLength={MAX_API_ENDPOINT_LENGTH}
          autoComplete="off"
          placeholder="https://api.partner-bank.example/iso20022"
          value={form.apiEndpoint}
          onChange={(event) => set("apiEndpoint")(event.target.value)}
          hint="Used by the connection test; http or https"
        />
        <TextAreaField
          label="Credentials (JSON)"
          rows={4}
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
          placeholder='{"apiKey": "…"}'
          value={form.credentialsConfig}
          onChange={(event) => {
            set("credentialsConfig")(event.target.value);
            setErrors((current) => ({ ...current, credentialsConfig: undefined }));
          }}
          error={errors.credentialsConfig}
          hint="Stored encrypted and shown masked. Blank: a default from the connection type, message standard and authentication method"
        />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close}>Cancel</Button>
          <Button type="submit" disabled={!canSubmit}>
            {create.isPending ? "Creating…" : "Create Connection"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
