/** The IBAN screen's data: the country formats and validation. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { IBAN_CONFIGS_KEY, IBAN_VALIDATE_PATH, type IbanConfig, type IbanValidationResult } from "./types.ts";

export const useIbanConfigs = () => useQuery<IbanConfig[]>({ queryKey: [IBAN_CONFIGS_KEY] });

export const useValidateIban = (onAnswer: (answer: IbanValidationResult) => void, onError: () => void) =>
  useApiMutation({
    mutationFn: (value: string) => apiJson<IbanValidationResult>("POST", IBAN_VALIDATE_PATH, { iban: value }),
    errorTitle: "Failed to validate IBAN",
    onSuccess: onAnswer,
    onError,
  });
