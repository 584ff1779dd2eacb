/**
 * Spec 2.15: report type, a two-month date-range picker, export format (PDF by default) and
 * Generate, which downloads the file; counters and the recent-reports table come from the recorded
 * reports; the compliance schedule's states are computed from the generated reports
 * (compliance_schedule.tsx). Texts of spec 5 are a contract.
 */
import { useMemo, useState } from "react";
import { PageHeader } from "../../components/layout/page_header.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { StatCard, StatGrid, TitledCard } from "../../components/ui/card.tsx";
import { SelectField, TextField } from "../../components/ui/form.tsx";
import { type ColumnDef, DataTable } from "../../components/ui/data_table.tsx";
import { EmptyState } from "../../components/ui/table.tsx";
import {
  DEFAULT_REPORT_FORMAT,
  isReportFormat,
  isReportType,
  REPORT_FORMAT_LABELS,
  REPORT_FORMATS,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  type ReportFormat,
  validateReportRange,
} from "../../../domain/report.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useToast } from "../../lib/toast.ts";
import {
  DateRangeCalendar,
  type DayRange,
  formatDay,
  isCalendarDay,
  localToday,
} from "./date_range_calendar.tsx";
import {
  type ReportList,
  type ReportRecord,
  useDownloadReport,
  useGenerateReport,
  useReports,
} from "./api.ts";
import { mayCall, RESTRICTED_REPORT_TYPES } from "../../../domain/access.ts";
import { useAuth } from "../../lib/auth.ts";
import { ComplianceSchedule } from "./compliance_schedule.tsx";
import { type LoadFailure, loadFailure } from "../../components/ui/load_failed.tsx";

const LOADING_ROWS = 3;
const BYTES_PER_KIB = 1024;

const TYPE_OPTIONS = REPORT_TYPES.map((type) => ({ value: type, label: REPORT_TYPE_LABELS[type] }));
const FORMAT_OPTIONS = REPORT_FORMATS.map((format) => ({
  value: format,
  label: REPORT_FORMAT_LABELS[format],
}));

function formatSize(bytes: number | null): string {
  if (bytes === null) return "—";
  if (bytes < BYTES_PER_KIB) return `${bytes} B`;
  if (bytes < BYTES_PER_KIB ** 2) return `${(bytes / BYTES_PER_KIB).toFixed(1)} KB`;
  return `${(bytes / BYTES_PER_KIB ** 2).toFixed(1)} MB`;
}

function firstOfMonth(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

function FileLink({ report, download }: { report: ReportRecord; download: (report: ReportRecord) => void }) {
  return report.downloadUrl
    ? (
      <a
        href={report.downloadUrl}
        download={report.fileName}
        aria-label={`Download ${report.fileName}`}
        onClick={(event) => {
          // Fetched by script so an ended session gets the sign-in redirect, not an error file.
          event.preventDefault();
          download(report);
        }}
        className="font-medium text-blue-800 underline hover:text-blue-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
      >
        Download
      </a>
    )
    : <span className="text-xs text-slate-600" title={report.error ?? undefined}>No file</span>;
}

function reportColumns(download: (report: ReportRecord) => void): ColumnDef<ReportRecord>[] {
  return [
    { accessorKey: "label", header: "Report", meta: { cellClassName: "font-medium" } },
    {
      id: "range",
      header: "Range",
      accessorFn: (report) => report.from,
      cell: ({ row }) => `${formatDay(row.original.from)} – ${formatDay(row.original.to)}`,
    },
    { id: "format", header: "Format", accessorFn: (report) => REPORT_FORMAT_LABELS[report.format] },
    {
      id: "rows",
      header: "Rows",
      accessorFn: (report) => report.rowCount ?? -1,
      cell: ({ row }) => row.original.rowCount ?? "—",
    },
    {
      id: "size",
      header: "Size",
      accessorFn: (report) => report.sizeBytes ?? -1,
      cell: ({ row }) => formatSize(row.original.sizeBytes),
    },
    {
      id: "generated",
      header: "Generated",
      accessorFn: (report) => report.completedAt ?? report.createdAt,
      cell: ({ row }) => (
        <>
          {formatDateTime(row.original.completedAt ?? row.original.createdAt)}
          {row.original.createdByName && (
            <span className="block text-xs text-slate-600">{row.original.createdByName}</span>
          )}
        </>
      ),
    },
    {
      accessorKey: "status",
      header: "Status",
      cell: ({ row }) =>
        row.original.status === "completed"
          ? <Badge className="bg-green-800 text-white">Completed</Badge>
          : <Badge variant="destructive" className="bg-red-700 text-white">Failed</Badge>,
    },
    {
      id: "file",
      header: "File",
      enableSorting: false,
      cell: ({ row }) => <FileLink report={row.original} download={download} />,
    },
  ];
}

function RecentReports({ items, isLoading, failure }: {
  items: ReportRecord[];
  isLoading: boolean;
  failure: LoadFailure | null;
}) {
  const download = useDownloadReport();
  const columns = useMemo(() => reportColumns((report) => download.mutate(report)), []);
  return (
    <DataTable
      label="Recent reports"
      columns={columns}
      rows={items}
      isLoading={isLoading}
      loadingRows={LOADING_ROWS}
      failure={failure}
      empty={
        <EmptyState
          title="No reports generated yet"
          text="Generated reports will appear here for download."
        />
      }
    />
  );
}

function Counters({ counters, loading }: { counters: ReportList["counters"] | undefined; loading: boolean }) {
  return (
    <StatGrid className="mb-6">
      <StatCard label="Reports This Month" value={loading ? "…" : counters?.thisMonth ?? 0} />
      <StatCard label="Total Reports" value={loading ? "…" : counters?.total ?? 0} />
      <StatCard
        label="Rows Exported"
        value={loading ? "…" : (counters?.rowsExported ?? 0).toLocaleString("en-US")}
      />
      <StatCard
        label="Last Generated"
        value={loading
          ? "…"
          : counters?.lastGeneratedAt
          ? formatDay(counters.lastGeneratedAt.slice(0, 10))
          : "Never"}
        hint={counters?.lastGeneratedAt ? formatDateTime(counters.lastGeneratedAt) : undefined}
      />
    </StatGrid>
  );
}

/** The audit trail and request log reports are offered only to the roles that may read them. */
function useTypeOptions() {
  const { user } = useAuth();
  return TYPE_OPTIONS.filter((option) => {
    const rule = RESTRICTED_REPORT_TYPES[option.value];
    return !rule || mayCall(rule, user?.roles ?? []);
  });
}

/** The report's days, this month so far at first; a typed boundary past the other one moves both. */
function useDayRange() {
  const [range, setRange] = useState<DayRange>(() => {
    const today = localToday();
    return { from: firstOfMonth(today), to: today };
  });
  const setBoundary = (field: "from" | "to", day: string) => {
    if (!isCalendarDay(day)) return;
    setRange((current) => {
      const next = { ...current, [field]: day };
      return next.from <= next.to ? next : { from: day, to: day };
    });
  };
  return { range, setRange, setBoundary };
}

function GenerateReport() {
  const typeOptions = useTypeOptions();
  const { toast } = useToast();
  const generate = useGenerateReport();
  const [type, setType] = useState("");
  const [format, setFormat] = useState<ReportFormat>(DEFAULT_REPORT_FORMAT);
  const { range, setRange, setBoundary } = useDayRange();

  const onGenerate = () => {
    if (!isReportType(type)) {
      toast({ title: "Error", description: "Please select a report type", variant: "destructive" });
      return;
    }
    const checked = validateReportRange(range.from, range.to);
    if (!checked.ok) {
      toast({ title: "Error", description: checked.error.message, variant: "destructive" });
      return;
    }
    toast({
      title: "Report Generated",
      description: `${REPORT_TYPE_LABELS[type]} is being prepared for download`,
    });
    generate.mutate({ type, format, from: range.from, to: range.to });
  };

  return (
    <TitledCard
      title="Generate Report"
      description="Dates are whole UTC days; both ends are included."
      className="lg:col-span-2"
      contentClassName="space-y-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Report Type"
          placeholder="Select report type"
          options={typeOptions}
          value={type}
          onChange={(event) => setType(event.target.value)}
        />
        <SelectField
          label="Export Format"
          options={FORMAT_OPTIONS}
          value={format}
          onChange={(event) => isReportFormat(event.target.value) && setFormat(event.target.value)}
        />
        <TextField
          label="From"
          type="date"
          value={range.from}
          onChange={(event) => setBoundary("from", event.target.value)}
        />
        <TextField
          label="To"
          type="date"
          value={range.to}
          onChange={(event) => setBoundary("to", event.target.value)}
        />
      </div>
      <DateRangeCalendar label="Report date range" value={range} onChange={setRange} />
      <Button changes onClick={onGenerate} disabled={generate.isPending}>
        {generate.isPending ? "Generating…" : "Generate Report"}
      </Button>
    </TitledCard>
  );
}

export default function ReportsPage() {
  const reports = useReports();
  const loading = reports.isLoading;
  return (
    <>
      <PageHeader
        title="Reports & Analytics"
        subtitle="Generate regulatory and operational reports from the registry"
      />
      <Counters counters={reports.data?.counters} loading={loading} />
      <div className="mb-6 grid gap-6 lg:grid-cols-3">
        <GenerateReport />
        <ComplianceSchedule />
      </div>
      <TitledCard
        title="Recent Reports"
        description="Every generated report is kept and can be downloaded again."
      >
        <RecentReports
          items={reports.data?.items ?? []}
          isLoading={loading}
          failure={loadFailure(reports, "Reports could not be loaded")}
        />
      </TitledCard>
    </>
  );
}
