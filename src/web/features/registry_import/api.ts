/** The registry import screen's data: dry runs, submissions and the imports so far. */
import { useQuery } from "@tanstack/react-query";
import type { LineError, TypeCounts } from "../../../domain/registry_import.ts";
import { ApiError } from "../../lib/api.ts";

export const IMPORTS_PATH = "/api/directory/imports";
const DRY_RUN_PATH = "/api/directory/imports/dry-run";

export interface ImportReport {
  sha256: string;
  rows: number;
  valid: boolean;
  counts: { institutions: TypeCounts; routingCodes: TypeCounts; bics: TypeCounts };
  errorCount: number;
  errors: LineError[];
  changeCount: number;
  changes: {
    line: number;
    recordType: string;
    key: string;
    action: "add" | "modify";
    fields: { field: string; before: string | null; after: string | null }[];
  }[];
}

export interface RegistryImport {
  id: string;
  fileName: string | null;
  rows: number;
  state:
    | "pending_approval"
    | "approved"
    | "applying"
    | "applied"
    | "failed"
    | "rejected"
    | "cancelled"
    | "expired";
  submittedByName: string;
  submittedAt: string;
  approvedAt: string | null;
  approvedByName: string | null;
  appliedAt: string | null;
  appliedByName: string | null;
  /** Why it failed, nothing applied: the registry changed since the dry run, or applying kept failing. */
  failure: { reason: string; message: string; errors?: LineError[] } | null;
}

/** Sends the file itself as the body: the server reads the directory layout's CSV. */
async function upload(url: string, file: File): Promise<Response> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "text/csv" },
    body: file,
    credentials: "include",
  });
  if (!res.ok && res.status !== 400) {
    const text = (await res.text()) || res.statusText;
    throw new ApiError(res.status, text, `${res.status}: ${text}`);
  }
  return res;
}

export async function dryRun(file: File): Promise<ImportReport> {
  return (await (await upload(DRY_RUN_PATH, file)).json()) as ImportReport;
}

export type SubmitAnswer =
  | { kind: "submitted"; import: RegistryImport }
  | { kind: "existing"; import: RegistryImport }
  | { kind: "refused"; message: string; report: ImportReport | null };

export async function submitImport(file: File, reason: string): Promise<SubmitAnswer> {
  const query = new URLSearchParams({ fileName: file.name, requestReason: reason });
  const res = await upload(`${IMPORTS_PATH}?${query}`, file);
  const body = await res.json();
  if (res.status === 400) return { kind: "refused", message: body.message, report: body.report ?? null };
  return res.status === 202 ? { kind: "submitted", import: body.import } : { kind: "existing", import: body };
}

/** While headquarters applies an approved import, the list is read again at this interval. */
const APPLYING_REFRESH_MS = 2_000;
const inProgress = (item: RegistryImport) => item.state === "approved" || item.state === "applying";

export const useImports = () =>
  useQuery<RegistryImport[]>({
    queryKey: [IMPORTS_PATH],
    refetchInterval: (query) => (query.state.data?.some(inProgress) ? APPLYING_REFRESH_MS : false),
  });
