/**
 * "Step n of N" of a sign-in that asks more than a password, drawn from the steps the server
 * computed for this sign-in (src/domain/first_sign_in.ts); the sign-in pages draw the same list.
 */
import { type SignInStep, type SignInStepId, stepHeading } from "../../../domain/first_sign_in.ts";

export function SignInStepIndicator(
  { steps, current }: { steps: readonly SignInStep[]; current: SignInStepId },
) {
  const heading = stepHeading(steps, current);
  if (!heading) return null;
  const currentIndex = steps.findIndex((step) => step.id === current);
  return (
    <nav
      aria-label="Sign-in steps"
      className="mt-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2"
      data-testid="sign-in-steps"
    >
      <p className="text-sm font-semibold text-blue-900" data-testid="sign-in-step-heading">{heading}</p>
      <ol className="mt-1 space-y-0.5 text-xs text-slate-700">
        {steps.map((step, index) => (
          <li
            key={step.id}
            className={`flex items-baseline gap-2${
              index === currentIndex ? " font-semibold text-slate-900" : ""
            }`}
            aria-current={index === currentIndex ? "step" : undefined}
          >
            <span aria-hidden="true" className="w-4 shrink-0 text-center">
              {index < currentIndex ? "✓" : index + 1}
            </span>
            <span>
              {step.label}
              {index < currentIndex && <span className="sr-only">&nbsp;(done)</span>}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
