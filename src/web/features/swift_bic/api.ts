/** The BIC codes' data: the list and registration. */
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { SWIFT_CODES_KEY, type SwiftCode, type SwiftCodeListItem } from "./types.ts";

export const useSwiftCodes = () => useQuery<SwiftCodeListItem[]>({ queryKey: [SWIFT_CODES_KEY] });

export const useRegisterBic = (onRegistered: (record: SwiftCode) => void) =>
  useApiMutation({
    mutationFn: (body: object) => apiJson<SwiftCode>("POST", SWIFT_CODES_KEY, body),
    invalidates: [SWIFT_CODES_KEY],
    errorTitle: "Failed to register BIC code",
    onSuccess: onRegistered,
  });
