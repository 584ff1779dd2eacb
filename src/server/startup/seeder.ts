/** The shape of a feature's first-start data step; startup/seed.ts runs them in order. */
import type { AppDeps } from "../http/context.ts";

export type Seeder = (deps: AppDeps, log: (line: string) => void) => Promise<void>;
