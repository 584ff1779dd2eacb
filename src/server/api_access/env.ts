/** Per-request variables of the API access plumbing, on top of the app's own (http/context.ts). */
import type { DocumentedEndpoint } from "../../domain/public_api.ts";
import type { AppEnv } from "../http/context.ts";

export interface ApiAccessEnv {
  Variables: AppEnv["Variables"] & {
    /** The documented endpoint a key caller is calling (set with apiKeyId). */
    apiEndpoint: DocumentedEndpoint | undefined;
    /** The key's own hourly limit, below the endpoint's when lower; null for keys made without one. */
    apiKeyLimitPerHour: number | null | undefined;
    /** The body the envelope sent, so the request log need not read the response again. */
    sentResponseBody: string | undefined;
  };
}
