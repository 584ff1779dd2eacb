/**
 * "Register Institution" (spec 2.8 and 5): the console sends its fixed central bank code and the
 * server assigns the entry's unique code. Blank connection details send the spec 5 default;
 * details that are not a JSON object block submission.
 */
import { validateBic } from "../../../domain/bic.ts";
import { asciiUpperCase } from "../../../domain/ascii.ts";
import { CONSOLE_CENTRAL_BANK_CODE, defaultConnectionDetails } from "../../../domain/national_routing.ts";
import { SelectField, TextAreaField, TextField } from "../../components/ui/form.tsx";
import { useToast } from "../../lib/toast.ts";
import {
  ACCOUNT_NUMBER_FORMAT_OPTIONS,
  CONNECTION_PROTOCOL_OPTIONS,
  INSTITUTION_TYPE_OPTIONS,
} from "./types.ts";
import { useRegisterNationalEntry } from "./api.ts";
import { type FormBinding, useDialogForm } from "../../lib/form_state.ts";
import { parseJsonObject } from "../../lib/form_input.ts";
import { BicField } from "../../components/bic_field.tsx";
import { FormDialog } from "../../components/form_dialog.tsx";

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

function RegistryFields({ form, set, bind }: FormBinding<RegisterForm>) {
  const bic = form.swiftBicCode.length > 0 ? validateBic(form.swiftBicCode) : null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label="Institution Name" required maxLength={MAX_INSTITUTION_NAME_LENGTH} {...bind("institutionName")} />
      <SelectField label="Institution Type" {...bind("institutionType")} options={INSTITUTION_TYPE_OPTIONS} />
      <TextField label="Registry Number" required maxLength={MAX_REGISTRY_NUMBER_LENGTH} {...bind("registryNumber")} />
      <TextField
        label="National Bank Code"
        required
        maxLength={MAX_NATIONAL_BANK_CODE_LENGTH}
        {...bind("nationalBankCode")}
        hint={`Up to ${MAX_NATIONAL_BANK_CODE_LENGTH} characters, unique`}
      />
      <SelectField label="Account Number Format" {...bind("accountNumberFormat")} options={ACCOUNT_NUMBER_FORMAT_OPTIONS} />
      <SelectField label="Connection Protocol" {...bind("connectionProtocol")} options={CONNECTION_PROTOCOL_OPTIONS} />
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
      <BicField label="SWIFT/BIC Code" value={form.swiftBicCode} onValue={set("swiftBicCode")} placeholder="DEUTDEFF" bic={bic} />
      <TextField
        label="Settlement Account"
        maxLength={MAX_SETTLEMENT_ACCOUNT_LENGTH}
        autoComplete="off"
        {...bind("settlementAccount")}
      />
    </div>
  );
}

/** The entry as the server takes it: optional codes as null, blank details as the spec 5 default. */
function entryBody(form: RegisterForm, details: Record<string, unknown> | null): Record<string, unknown> {
  const ibanPrefix = form.ibanPrefix.trim() || null;
  const swiftBicCode = form.swiftBicCode.trim() || null;
  return {
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
    connectionDetails: details ?? defaultConnectionDetails({ swiftBicCode, ibanPrefix }),
  };
}

export function RegisterInstitutionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const state = useDialogForm<RegisterForm>(EMPTY, onClose);
  const { form, setErrors, bind, close } = state;
  const { toast } = useToast();

  const register = useRegisterNationalEntry((entry) => {
    toast({
      title: "National routing entry created successfully",
      description: `${entry.institutionName} registered with central bank code ${entry.centralBankCode}`,
    });
    close();
  });

  const bic = form.swiftBicCode.length > 0 ? validateBic(form.swiftBicCode) : null;
  const canSubmit = form.institutionName.trim() !== "" && form.registryNumber.trim() !== "" &&
    form.nationalBankCode.trim() !== "" && (bic === null || bic.ok) && !register.isPending;

  const submit = () => {
    const details = parseJsonObject(form.connectionDetails, "Connection details", '{"currencies": ["USD"]}');
    if (details.ok) register.mutate(entryBody(form, details.value));
    else setErrors({ connectionDetails: details.message });
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      wide
      title="Register Institution"
      description="Adds a participant to the national routing registry with its SWIFT and IBAN integration data."
      onSubmit={submit}
      submitLabel="Register Institution"
      pendingLabel="Registering…"
      isPending={register.isPending}
      canSubmit={canSubmit}
    >
      <RegistryFields {...state} />
      <TextAreaField
        label="Connection Details (JSON)"
        rows={4}
        spellCheck={false}
        className="font-mono"
        {...bind("connectionDetails")}
        placeholder='{"messageFormats": ["iso20022"], "currencies": ["USD"]}'
        hint="Blank: ISO 20022 and MT103 messages, USD and EUR, real-time settlement; SWIFT and IBAN flags from the codes above"
      />
    </FormDialog>
  );
}
