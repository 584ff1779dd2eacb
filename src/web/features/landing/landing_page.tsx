import { Button } from "../../components/ui/button.tsx";
import { currentPath, rememberReturnPath } from "../../lib/return_to.ts";

const FEATURES = [
  { title: "Institution Registry", text: "Register, approve and supervise banks, credit unions and other financial institutions." },
  { title: "Routing Codes", text: "Assign and verify national routing codes with check digits." },
  { title: "SWIFT Integration", text: "Maintain SWIFT/BIC codes and membership data for participants." },
  { title: "ISO 13616 IBAN Validation", text: "Validate IBANs against every registered country format." },
];

const SECURITY_POINTS = [
  "Complete audit trails for every change",
  "ISO 20022 messaging compliance",
  "Real-time validation and lookup APIs",
  "Reporting and analytics for supervisors",
];

function signIn() {
  // Signed out on a deep link (e.g. /reports): come back to it after signing in.
  rememberReturnPath(currentPath());
  globalThis.location.href = "/api/login";
}

export default function LandingPage() {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-6 py-4">
          <div>
            <p className="text-lg font-semibold text-slate-900">Central Bank Registry</p>
            <p className="text-sm text-slate-600">National Payment Infrastructure Console</p>
          </div>
          <Button onClick={signIn}>Sign In</Button>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-6 py-12">
        <section className="text-center">
          <h1 className="text-4xl font-bold tracking-tight text-slate-900">National Payment Infrastructure Management</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-700">
            The central bank's registry of financial institutions, routing codes, SWIFT/BIC codes and IBAN formats, in one secure console.
          </p>
        </section>
        <section aria-label="Capabilities" className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => (
            <div key={feature.title} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
              <h2 className="text-base font-semibold text-slate-900">{feature.title}</h2>
              <p className="mt-2 text-sm text-slate-600">{feature.text}</p>
            </div>
          ))}
        </section>
        <section className="mt-12 grid gap-6 lg:grid-cols-2">
          <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="text-xl font-semibold text-slate-900">Secure Central Banking Operations</h2>
            <ul className="mt-4 list-disc space-y-2 pl-5 text-sm text-slate-700">
              {SECURITY_POINTS.map((point) => <li key={point}>{point}</li>)}
            </ul>
          </div>
          <div className="rounded-lg border border-blue-200 bg-blue-50 p-6">
            <h2 className="text-xl font-semibold text-slate-900">Access Required</h2>
            <p className="mt-2 text-sm text-slate-700">
              Access is restricted to authorized central bank personnel and supervised financial institutions.
            </p>
            <Button className="mt-4" onClick={signIn}>Authenticate with Central Bank Credentials</Button>
          </div>
        </section>
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <p className="mx-auto max-w-6xl px-6 py-6 text-sm text-slate-600">
          © 2024 Central Bank Registry System. All rights reserved.
        </p>
      </footer>
    </div>
  );
}
