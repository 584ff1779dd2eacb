/**
 * An audit event as people read it: the sentence the server composed (actor and entities linked to
 * their screens when the viewer may open them, amounts in currency format) and the before/after table.
 */
import { Link } from "react-router";
import { mayCall, ruleFor } from "../../../domain/access.ts";
import { changeRows, type SentencePart } from "../../../domain/audit_phrases.ts";
import { NAV_ITEMS } from "../../components/layout/nav_items.ts";
import { useAuth } from "../../lib/auth.ts";

const LINK_CLASS =
  "font-medium text-blue-900 underline underline-offset-2 hover:text-blue-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700";

/** Whether the signed-in viewer may open the screen at `link` (a link they cannot follow is shown as text). */
export function useMayOpen(): (link: string | null) => link is string {
  const { user } = useAuth();
  const roles = user?.roles ?? [];
  return (link): link is string => {
    if (link === null) return false;
    const first = `/${link.split(/[/?#]/)[1] ?? ""}`;
    const item = NAV_ITEMS.find((entry) => entry.path === first);
    if (!item) return false;
    if (!("api" in item) || !item.api) return true;
    const rule = ruleFor(item.api[0], item.api[1]);
    return rule !== undefined && mayCall(rule, roles);
  };
}

function Named(
  { label, link, mayOpen }: {
    label: string;
    link: string | null;
    mayOpen: (link: string | null) => link is string;
  },
) {
  if (mayOpen(link)) {
    return <Link to={link} className={LINK_CLASS}>{label}</Link>;
  }
  return <span className="font-medium text-slate-900">{label}</span>;
}

export function Sentence({ parts }: { parts: readonly SentencePart[] }) {
  const mayOpen = useMayOpen();
  return (
    <p className="min-w-[16rem] max-w-xl leading-relaxed">
      {parts.map((part, i) => {
        switch (part.kind) {
          case "text":
            return <span key={i}>{part.text}</span>;
          case "amount":
            return <strong key={i} className="font-semibold tabular-nums">{part.text}</strong>;
          default:
            return <Named key={i} label={part.label} link={part.link} mayOpen={mayOpen} />;
        }
      })}
    </p>
  );
}

const EMPTY_VALUE = "—";

/** The recorded change, field by field; values as stored (masked card numbers and secrets stay masked). */
export function ChangesTable({ changes, caption }: { changes: unknown; caption: string }) {
  const rows = changeRows(changes);
  if (rows.length === 0) {
    return <p className="text-sm text-slate-600">Nothing was recorded beside the event.</p>;
  }
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="min-w-[20rem] border-collapse text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-700">
            <th scope="col" className="py-1 pr-4 font-semibold">Field</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Before</th>
            <th scope="col" className="py-1 font-semibold">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.field} className="border-b border-slate-100 align-top">
              <th scope="row" className="py-1 pr-4 font-medium text-slate-800">{row.label}</th>
              <td className="break-all py-1 pr-4 font-mono text-slate-700">{row.before ?? EMPTY_VALUE}</td>
              <td
                className={`break-all py-1 font-mono ${
                  row.before !== row.after && row.before !== null
                    ? "font-semibold text-slate-900"
                    : "text-slate-700"
                }`}
              >
                {row.after ?? EMPTY_VALUE}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
