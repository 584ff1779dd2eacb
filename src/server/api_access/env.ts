/** Per-request variables of the API access plumbing, on top of the app's own (context.ts). */
import type { DocumentedEndpoint } from "../../domain/public_api.ts";
import type { AppEnv } from "../context.ts";
import type { LoggedResponse } from "./request_log_rows.ts";

/** The text of a c.json() answer and the response it made: JSON by construction, never read back. */
export interface JsonAnswer {
  text: string;
  res: Response;
}

export interface ApiAccessEnv {
  Variables: AppEnv["Variables"] & {
    /** The documented endpoint a key caller is calling (set with apiKeyId). */
    apiEndpoint: DocumentedEndpoint | undefined;
    /** The last c.json() answer (see rememberJsonAnswers in envelope.ts). */
    jsonAnswer: JsonAnswer | undefined;
    /** The body the envelope sent, so the request log need not read the response again. */
    sentResponse: LoggedResponse | undefined;
  };
}
