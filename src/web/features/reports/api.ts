/** Reports data for the screen: the recorded reports with their counters, and file downloads. */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { ReportFormat, ReportType } from "../../../domain/report.ts";
import type {
  ComplianceFiling,
  CreateFilingInput,
  ReportList,
  ReportRecord,
} from "../../../server/features/reports/schemas.ts";
import { apiJson, apiRequest, queryClient } from "../../lib/api.ts";
import { useApiMutation } from "../../lib/mutation.ts";
import { handleMutationError } from "../../lib/unauthorized.ts";
import { useToast } from "../../lib/toast.ts";

export const REPORTS_KEY = "/api/reports";
/** The object URL is released after the browser has taken the click. */
const OBJECT_URL_RELEASE_DELAY_MS = 1_000;

export type { ComplianceFiling, ReportList, ReportRecord } from "../../../server/features/reports/schemas.ts";

export interface ReportRequest {
  type: ReportType;
  format: ReportFormat;
  from: string;
  to: string;
}

export function useReports() {
  return useQuery<ReportList>({ queryKey: [REPORTS_KEY] });
}

const FILE_NAME = /filename="([^"]+)"/;

/** Hands a response body to the browser as a file download (object URL and a temporary link). */
async function saveResponse(res: Response, fallbackName: string): Promise<void> {
  const name = FILE_NAME.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_RELEASE_DELAY_MS);
}

export function useGenerateReport() {
  const { toast } = useToast();
  return useMutation({
    mutationFn: async (request: ReportRequest) => {
      const res = await apiRequest("POST", REPORTS_KEY, request);
      await saveResponse(res, `${request.type}_${request.from}_${request.to}.${request.format}`);
    },
    // A new report may complete a filing of the compliance schedule.
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: [REPORTS_KEY] });
      queryClient.invalidateQueries({ queryKey: [COMPLIANCE_SCHEDULE_KEY] });
    },
    onError: (error) => handleMutationError(error, toast, "Report Generation Failed"),
  });
}

export function useDownloadReport() {
  const { toast } = useToast();
  return useMutation({
    mutationFn: async (report: ReportRecord) => {
      if (!report.downloadUrl) throw new Error("This report has no file");
      const res = await apiRequest("GET", report.downloadUrl);
      await saveResponse(res, report.fileName);
    },
    onError: (error) => handleMutationError(error, toast, "Download Failed"),
  });
}

export const COMPLIANCE_SCHEDULE_KEY = "/api/reports/compliance-schedule";

export function useComplianceSchedule() {
  return useQuery<ComplianceFiling[]>({ queryKey: [COMPLIANCE_SCHEDULE_KEY] });
}

export const useAddFiling = (onAdded: () => void, onError: (error: Error) => void) =>
  useApiMutation({
    mutationFn: (body: CreateFilingInput) => apiJson<ComplianceFiling>("POST", COMPLIANCE_SCHEDULE_KEY, body),
    invalidates: [COMPLIANCE_SCHEDULE_KEY],
    errorTitle: "Filing not added",
    onSuccess: onAdded,
    onError,
  });

export const useChangeDueDate = (onChanged: () => void) =>
  useApiMutation({
    mutationFn: ({ id, dueDate }: { id: string; dueDate: string }) =>
      apiJson<ComplianceFiling>("PATCH", `${COMPLIANCE_SCHEDULE_KEY}/${encodeURIComponent(id)}`, { dueDate }),
    invalidates: [COMPLIANCE_SCHEDULE_KEY],
    errorTitle: "Due date not changed",
    onSuccess: onChanged,
  });

export const useRemoveFiling = () =>
  useApiMutation({
    mutationFn: (id: string) => apiJson<void>("DELETE", `${COMPLIANCE_SCHEDULE_KEY}/${encodeURIComponent(id)}`),
    invalidates: [COMPLIANCE_SCHEDULE_KEY],
    errorTitle: "Filing not removed",
  });
