/** Request shapes of linking a provider identity to a console user, and of unlinking it. */
import { z } from "zod";

/** As user_identities holds them (migration 0901). */
export const MAX_ISSUER_LENGTH = 2_048;
export const MAX_SUBJECT_LENGTH = 255;
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The issuer exactly as the provider's ID tokens carry it (`iss`), and the subject (`sub`) as given. */
export const identityBody = z.object({
  issuer: z.string().trim().min(1, "Required").max(MAX_ISSUER_LENGTH).refine(
    (issuer) => URL.canParse(issuer) && /^https?:$/.test(new URL(issuer).protocol),
    "The issuer is an http(s) URL, exactly as the provider's ID tokens carry it (iss)",
  ),
  subject: z.string().min(1, "Required").max(MAX_SUBJECT_LENGTH).refine(
    (subject) => !CONTROL_CHARACTER.test(subject),
    "The subject holds a control character",
  ),
});

export type IdentityInput = z.infer<typeof identityBody>;
