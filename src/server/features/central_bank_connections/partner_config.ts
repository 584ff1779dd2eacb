/**
 * The pre-configured partner of spec 2.9: its name, codes, endpoint and credentials template come
 * from a JSON file (config/partner_connection.json, or the file named by PARTNER_CONNECTION_FILE),
 * read and validated once at start-up so a broken file stops the server instead of a request.
 */
import { z } from "zod";
import {
  AUTHENTICATION_METHODS,
  CONNECTION_TYPES,
  CURRENCIES,
  MESSAGE_STANDARDS,
} from "../../../../db/schema.ts";
import { issuesToFields } from "../../http/validation.ts";
import {
  credentialsConfigSchema,
  MAX_PARTNER_BANK_CODE_LENGTH,
  MAX_PARTNER_NAME_LENGTH,
  optionalBic,
  optionalEndpoint,
  optionalLimitMinor,
} from "./schemas.ts";

export const PARTNER_CONNECTION_FILE_ENV = "PARTNER_CONNECTION_FILE";
export const DEFAULT_PARTNER_CONNECTION_FILE =
  new URL("../../../../config/partner_connection.json", import.meta.url)
    .pathname;

const partnerConfigSchema = z.object({
  /** The name the console looks for in existing connections' partner names. */
  associationName: z.string().trim().min(1).max(MAX_PARTNER_NAME_LENGTH),
  /** Stored partner name; defaults to the association's name and must contain it. */
  partnerCentralBank: z.string().trim().min(1).max(MAX_PARTNER_NAME_LENGTH).optional(),
  connectionType: z.enum(CONNECTION_TYPES).default("correspondent"),
  partnerBankCode: z.string().trim().max(MAX_PARTNER_BANK_CODE_LENGTH).nullish().transform((value) =>
    value || null
  ),
  partnerSwiftCode: optionalBic,
  messageStandard: z.enum(MESSAGE_STANDARDS),
  settlementCurrency: z.enum(CURRENCIES).default("USD"),
  dailySettlementLimit: optionalLimitMinor,
  apiEndpoint: optionalEndpoint,
  authenticationMethod: z.enum(AUTHENTICATION_METHODS).default("api_key"),
  credentialsTemplate: credentialsConfigSchema,
}).transform((config, ctx) => {
  const partnerCentralBank = config.partnerCentralBank ?? config.associationName;
  if (!partnerCentralBank.toLowerCase().includes(config.associationName.toLowerCase())) {
    ctx.addIssue({
      code: "custom",
      path: ["partnerCentralBank"],
      message: "Must contain associationName, or the console would keep offering the connection",
    });
  }
  return { ...config, partnerCentralBank };
});

export type PartnerConfig = z.infer<typeof partnerConfigSchema>;

export function partnerConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  return env[PARTNER_CONNECTION_FILE_ENV] || DEFAULT_PARTNER_CONNECTION_FILE;
}

export function loadPartnerConfig(path: string): PartnerConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(path));
  } catch (error) {
    throw new Error(`${PARTNER_CONNECTION_FILE_ENV}: cannot read ${path}: ${(error as Error).message}`);
  }
  const parsed = partnerConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = Object.entries(issuesToFields(parsed.error.issues)).map(([field, message]) =>
      `${field}: ${message}`
    );
    throw new Error(`${PARTNER_CONNECTION_FILE_ENV}: ${path} is invalid: ${problems.join("; ")}`);
  }
  return parsed.data;
}
