/**
 * "Register Institution" (spec 2.8 and 5): the console sends its fixed central bank code and the
 * server assigns the entry's unique code. Blank connection details send the spec 5 default;
 * details that are not a JSON object block submission.
 */
import { type FormEvent, useState } from "react";
import { BIC_LENGTH_WITH_BRANCH, validateBic } from "../../../domain/bic.ts";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { CONSOLE_CENTRAL_BANK_CODE, defaultConnectionDetails } from "../../../domain/national_routing.ts";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  ACCOUNT_NUMBER_FORMAT_OPTIONS,
  CONNECTION_PROTOCOL_OPTIONS,
  INSTITUTION_TYPE_OPTIONS,
} from "./types.ts";
import { useRegisterNationalEntry } from "./api.ts";

const MAX_REGISTRY_NUMBER_LENGTH = 20;
const MAX_INSTITUTION_NAME_LENGTH = 255;
const MAX_NATIONAL_BANK_CODE_LENGTH = 8;
const MAX_IBAN_PREFIX_LENGTH = 4;
const MAX_SETTLEMENT_ACCOUNT_LENGTH = 34;

interface RegisterForm {
  institutionName: string;
  institutionType: string;
  registryNumber: string;
  nationalBankCode: string;
  accountNumberFormat: string;
  connectionProtocol: string;
  ibanPrefix: string;
  swiftBicCode: string;
  settlementAccount: string;
  connectionDetails: string;
}

const EMPTY: RegisterForm = {
  institutionName: "",
  institutionType: "commercial_bank",
  registryNumber: "",
  nationalBankCode: "",
  accountNumberFormat: "10-digit",
  connectionProtocol: "iso20022",
  ibanPrefix: "",
  swiftBicCode: "",
  settlementAccount: "",
  connectionDetails: "",
};

type Parsed = { ok: true; value: Record<string, unknown> | null } | { ok: false; message: string };

/** Blank: null (the default applies). Otherwise it must parse to a JSON object. */
function parseConnectionDetails(text: string): Parsed {
  if (text.trim() === "") return { ok: true, value: null };
  try {
    const value = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, message: 'Connection details must be a JSON object, like {"currencies": ["USD"]}' };
    }
    return { ok: true, value };
  } catch {
    return { ok: false, message: "Connection details must be valid JSON" };
  }
}

export function RegisterInstitutionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [detailsError, setDetailsError] = useState<string | null>(null);
  const { toast } = useToast();

  const close = () => {
    setForm(EMPTY);
    setDetailsError(null);
    onClose();
  };

  const register = useRegisterNationalEntry((entry) => {
    toast({
      title: "National routing entry created successfully",
      description: `${entry.institutionName} registered with central bank code ${entry.centralBankCode}`,
    });
    close();
  });

  const set = (field: keyof RegisterForm) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));
  const bic = form.swiftBicCode.length > 0 ? validateBic(form.swiftBicCode) : null;
  const canSubmit = form.institutionName.trim() !== "" && form.registryNumber.trim() !== "" &&
    form.nationalBankCode.trim() !== "" && (bic === null || bic.ok) && !register.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const details = parseConnectionDetails(form.connectionDetails);
    if (!details.ok) {
      setDetailsError(details.message);
      return;
    }
    if (!canSubmit) return;
    const ibanPrefix = form.ibanPrefix.trim() || null;
    const swiftBicCode = form.swiftBicCode.trim() || null;
    register.mutate({
      centralBankCode: CONSOLE_CENTRAL_BANK_CODE,
      institutionName: form.institutionName,
      institutionType: form.institutionType,
      registryNumber: form.registryNumber,
      nationalBankCode: form.nationalBankCode,
      accountNumberFormat: form.accountNumberFormat,
      connectionProtocol: form.connectionProtocol,
      ibanPrefix,
      swiftBicCode,
      settlementAccount: form.settlementAccount.trim() || null,
      connectionDetails: details.value ?? defaultConnectionDetails({ swiftBicCode, ibanPrefix }),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      title="Register Institution"
      description="Adds a participant to the national routing registry with its SWIFT and IBAN integration data."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Institution Name"
            required
            maxLength={MAX_INSTITUTION_NAME_LENGTH}
            value={form.institutionName}
            onChange={(event) => set("institutionName")(event.target.value)}
          />
          <SelectField
            label="Institution Type"
            value={form.institutionType}
            onChange={(event) => set("institutionType")(event.target.value)}
            options={INSTITUTION_TYPE_OPTIONS}
          />
          <TextField
            label="Registry Number"
            required
            maxLength={MAX_REGISTRY_NUMBER_LENGTH}
            value={form.registryNumber}
            onChange={(event) => set("registryNumber")(event.target.value)}
          />
          <TextField
            label="National Bank Code"
            required
            maxLength={MAX_NATIONAL_BANK_CODE_LENGTH}
            value={form.nationalBankCode}
            onChange={(event) => set("nationalBankCode")(event.target.value)}
            hint={`Up to ${MAX_NATIONAL_BANK_CODE_LENGTH} characters, unique`}
          />
          <SelectField
            label="Account Number Format"
            value={form.accountNumberFormat}
            onChange={(event) => set("accountNumberFormat")(event.target.value)}
            options={ACCOUNT_NUMBER_FORMAT_OPTIONS}
          />
          <SelectField
            label="Connection Protocol"
            value={form.connectionProtocol}
            onChange={(event) => set("connectionProtocol")(event.target.value)}
            options={CONNECTION_PROTOCOL_OPTIONS}
          />
          <TextField
            label="IBAN Prefix"
            maxLength={MAX_IBAN_PREFIX_LENGTH}
            autoComplete="off"
            value={form.ibanPrefix}
            onChange={(event) => set("ibanPrefix")(asciiUpperCase(event.target.value).trim())}
            placeholder="DE"
            className="font-mono"
            hint="Country code, optionally with check digits (max 4)"
          />
          <TextField
            label="SWIFT/BIC Code"
            maxLength={BIC_LENGTH_WITH_BRANCH}
            autoComplete="off"
            spellCheck={false}
            value={form.swiftBicCode}
            onChange={(event) => set("swiftBicCode")(asciiUpperCase(event.target.value).trim())}
            placeholder="DEUTDEFF"
            className="font-mono"
            error={bic !== null && !bic.ok ? bic.error.message : null}
            hint="8 or 11 characters"
          />
          <TextField
            label="Settlement Account"
            maxLength={MAX_SETTLEMENT_ACCOUNT_LENGTH}
            autoComplete="off"
            value={form.settlementAccount}
            onChange={(event) => set("settlementAccount")(event.target.value)}
          />
        </div>
        <TextAreaField
          label="Connection Details (JSON)"
          rows={4}
          spellCheck={false}
          className="font-mono"
          value={form.connectionDetails}
          onChange={(event) => {
            set("connectionDetails")(event.target.value);
            setDetailsError(null);
          }}
          placeholder='{"messageFormats": ["iso20022"], "currencies": ["USD"]}'
          error={detailsError}
          hint="Blank: ISO 20022 and MT103 messages, USD and EUR, real-time settlement; SWIFT and IBAN flags from the codes above"
        />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close}>Cancel</Button>
          <Button type="submit" disabled={!canSubmit}>
            {register.isPending ? "Registering…" : "Register Institution"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
