import { Link } from "react-router";

/** An institution's name, linked to its page (/institutions/:id). */
export function InstitutionLink({ id, name }: { id: string; name: string }) {
  return (
    <Link
      to={`/institutions/${encodeURIComponent(id)}`}
      className="font-medium text-blue-900 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
    >
      {name}
    </Link>
  );
}
