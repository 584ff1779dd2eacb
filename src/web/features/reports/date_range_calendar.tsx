/**
 * Spec 2.15's date-range picker: two months side by side. Each month is a table of day buttons
 * with one tab stop for the whole calendar (roving tabindex); arrow keys move by day and week,
 * Home/End to the week's ends, PageUp/PageDown by month, Enter or Space picks. The first pick sets
 * the start, the second the end (an earlier second pick starts over). Dates are calendar days
 * "YYYY-MM-DD", which the reports API reads as UTC days.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";

const MS_PER_DAY = 86_400_000;
const DAYS_PER_WEEK = 7;
const MONTHS_SHOWN = 2;

export interface DayRange {
  from: string;
  to: string;
}

function toMs(day: string): number {
  const [year, month, date] = day.split("-").map(Number);
  return Date.UTC(year, month - 1, date);
}

function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  return toDay(toMs(day) + days * MS_PER_DAY);
}

/** Same day of the month `months` later, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
function addMonths(day: string, months: number): string {
  const date = new Date(toMs(day));
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return toDay(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(date.getUTCDate(), lastDay)));
}

function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

function weekday(day: string): number {
  return new Date(toMs(day)).getUTCDay();
}

/** Today in the browser's own calendar, as people think of "today". */
export function localToday(): string {
  const now = new Date();
  return toDay(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
}

export function isCalendarDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && toDay(toMs(text)) === text;
}

const monthTitle = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const longDay = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const shortDay = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const WEEKDAYS = Array.from({ length: DAYS_PER_WEEK }, (_, i) => {
  // 2023-01-01 was a Sunday.
  const ms = Date.UTC(2023, 0, 1 + i);
  return {
    short: new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone: "UTC" }).format(ms),
    long: new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" }).format(ms),
  };
});

export function formatDay(day: string): string {
  return shortDay.format(toMs(day));
}

/** The weeks of the month starting at `first`: null pads the days outside it. */
function monthWeeks(first: string): (string | null)[][] {
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: weekday(first) }, () => null);
  for (let day = first; day.slice(0, 7) === first.slice(0, 7); day = addDays(day, 1)) {
    week.push(day);
    if (week.length === DAYS_PER_WEEK) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0) {
    weeks.push([
      ...week,
      ...Array.from({ length: DAYS_PER_WEEK - week.length }, () => null),
    ]);
  }
  return weeks;
}

/** The day a key moves the focus to, or undefined for a key that moves nothing. */
function keyMove(key: string, day: string): string | undefined {
  const moves: Record<string, () => string> = {
    ArrowLeft: () => addDays(day, -1),
    ArrowRight: () => addDays(day, 1),
    ArrowUp: () => addDays(day, -DAYS_PER_WEEK),
    ArrowDown: () => addDays(day, DAYS_PER_WEEK),
    Home: () => addDays(day, -weekday(day)),
    End: () => addDays(day, DAYS_PER_WEEK - 1 - weekday(day)),
    PageUp: () => addMonths(day, -1),
    PageDown: () => addMonths(day, 1),
  };
  return moves[key]?.();
}

/** A day's accessible name: the date, where it stands in the range, and whether it is today. */
function describeDay(day: string, value: DayRange, today: string): string {
  const parts = [longDay.format(toMs(day))];
  if (day === value.from && day === value.to) parts.push("selected");
  else if (day === value.from) parts.push("start of range");
  else if (day === value.to) parts.push("end of range");
  else if (day > value.from && day < value.to) parts.push("in range");
  if (day === today) parts.push("today");
  return parts.join(", ");
}

interface DayProps {
  value: DayRange;
  today: string;
  tabStop: string;
  onPick: (day: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>, day: string) => void;
}

function DayButton({ day, value, today, tabStop, onPick, onKeyDown }: DayProps & { day: string }) {
  const endpoint = day === value.from || day === value.to;
  const inside = day > value.from && day < value.to;
  return (
    <button
      type="button"
      data-day={day}
      tabIndex={day === tabStop ? 0 : -1}
      aria-label={describeDay(day, value, today)}
      aria-pressed={endpoint || inside}
      aria-current={day === today ? "date" : undefined}
      onClick={() => onPick(day)}
      onKeyDown={(event) => onKeyDown(event, day)}
      className={`h-8 w-full rounded-md text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 ${
        endpoint
          ? "bg-blue-800 font-semibold text-white"
          : inside
          ? "bg-blue-100 text-slate-900"
          : "text-slate-900 hover:bg-slate-100"
      } ${day === today && !endpoint ? "underline decoration-2 underline-offset-2" : ""}`}
    >
      {Number(day.slice(8))}
    </button>
  );
}

function MonthGrid({ first, ...dayProps }: DayProps & { first: string }) {
  return (
    <table className="w-full border-collapse text-center text-sm">
      <caption className="pb-2 text-sm font-semibold text-slate-900">{monthTitle.format(toMs(first))}</caption>
      <thead>
        <tr>
          {WEEKDAYS.map((day) => (
            <th key={day.long} scope="col" abbr={day.long} className="pb-1 text-xs font-medium text-slate-600">
              {day.short.slice(0, 2)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {monthWeeks(first).map((week, row) => (
          <tr key={row}>
            {week.map((day, column) =>
              day === null ? <td key={column} /> : (
                <td key={day} className="p-0.5">
                  <DayButton day={day} {...dayProps} />
                </td>
              )
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const NAV_BUTTON =
  "rounded-md px-2 py-1 text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700";

function MonthNav({ value, pickingEnd, statusId, onShift }: {
  value: DayRange;
  pickingEnd: boolean;
  statusId: string;
  onShift: (months: number) => void;
}) {
  return (
    <div className="mb-2 flex items-center justify-between">
      <button type="button" onClick={() => onShift(-1)} aria-label="Previous month" className={NAV_BUTTON}>
        <span aria-hidden="true">‹</span>
      </button>
      <p id={statusId} role="status" className="text-sm text-slate-700">
        {value.from === value.to ? formatDay(value.from) : `${formatDay(value.from)} – ${formatDay(value.to)}`}
        {pickingEnd ? " (pick the end date)" : ""}
      </p>
      <button type="button" onClick={() => onShift(1)} aria-label="Next month" className={NAV_BUTTON}>
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}

/** The shown months and the focused day, kept in step: moving the focus off the shown months scrolls them. */
function useMonthFocus(from: string) {
  const [firstMonth, setFirstMonth] = useState(() => monthStart(from));
  const [focused, setFocused] = useState(from);
  const moveFocus = useRef(false);
  const container = useRef<HTMLDivElement>(null);
  const lastMonth = addMonths(firstMonth, MONTHS_SHOWN - 1);

  // Typing a date into the inputs brings its month into view.
  useEffect(() => {
    const shownTo = monthStart(addMonths(firstMonth, MONTHS_SHOWN));
    if (from < firstMonth || from >= shownTo) {
      setFirstMonth(monthStart(from));
      setFocused(from);
    }
  }, [from]);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    container.current?.querySelector<HTMLButtonElement>(`button[data-day="${focused}"]`)?.focus();
  }, [focused, firstMonth]);

  const focusDay = (day: string) => {
    moveFocus.current = true;
    if (day < firstMonth) setFirstMonth(monthStart(day));
    else if (day >= monthStart(addMonths(lastMonth, 1))) {
      setFirstMonth(monthStart(addMonths(day, -(MONTHS_SHOWN - 1))));
    }
    setFocused(day);
  };
  const shiftMonths = (months: number) => {
    setFirstMonth(addMonths(firstMonth, months));
    setFocused(addMonths(focused, months));
  };
  // The roving tab stop must sit on a day that is shown.
  const tabStop = focused >= firstMonth && focused < monthStart(addMonths(lastMonth, 1)) ? focused : firstMonth;
  return { firstMonth, container, focusDay, setFocused, shiftMonths, tabStop };
}

export function DateRangeCalendar({ value, onChange, label }: {
  value: DayRange;
  onChange: (range: DayRange) => void;
  label: string;
}) {
  const { firstMonth, container, focusDay, setFocused, shiftMonths, tabStop } = useMonthFocus(value.from);
  const [pickingEnd, setPickingEnd] = useState(false);
  const statusId = useId();
  const today = localToday();

  const pick = (day: string) => {
    setFocused(day);
    if (!pickingEnd || day < value.from) {
      onChange({ from: day, to: day });
      setPickingEnd(true);
    } else {
      onChange({ from: value.from, to: day });
      setPickingEnd(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, day: string) => {
    const next = keyMove(event.key, day);
    if (next === undefined) return;
    event.preventDefault();
    focusDay(next);
  };

  return (
    <div
      ref={container}
      role="group"
      aria-label={label}
      aria-describedby={statusId}
      className="rounded-md border border-slate-200 p-3"
    >
      <MonthNav value={value} pickingEnd={pickingEnd} statusId={statusId} onShift={shiftMonths} />
      <div className="grid gap-4 md:grid-cols-2">
        {Array.from({ length: MONTHS_SHOWN }, (_, index) => addMonths(firstMonth, index)).map((first) => (
          <MonthGrid
            key={first}
            first={first}
            value={value}
            today={today}
            tabStop={tabStop}
            onPick={pick}
            onKeyDown={onKeyDown}
          />
        ))}
      </div>
    </div>
  );
}
