import { lazy, Suspense, useEffect } from "react";
import { Route, Routes, useNavigate } from "react-router";
import { RoleGate } from "./components/layout/role_gate.tsx";
import { Shell } from "./components/layout/shell.tsx";
import { Spinner } from "./components/ui/spinner.tsx";
import { Toaster } from "./components/ui/toaster.tsx";
import { NewInstitutionDialogHost } from "./features/institutions/new_institution_dialog_host.tsx";
import { StaySignedIn } from "./features/session/stay_signed_in.tsx";
import { useAuth } from "./lib/auth.ts";
import { takeReturnPath } from "./lib/return_to.ts";
import { LandingPage, NotFoundPage, ROUTES } from "./routes.tsx";

const ForcedPasswordChange = lazy(() =>
  import("./components/layout/change_password.tsx").then((module) => ({ default: module.ForcedPasswordChange }))
);

function SignedInApp({ user }: { user: ReturnType<typeof useAuth>["user"] }) {
  const navigate = useNavigate();
  useEffect(() => {
    const path = takeReturnPath();
    if (path) navigate(path, { replace: true });
  }, []);
  return (
    <Shell user={user} dialogs={<><NewInstitutionDialogHost /><StaySignedIn /></>}>
      <Suspense fallback={<Spinner />}>
        <Routes>
          {ROUTES.map(({ path, Screen }) => (
            <Route key={path} path={path} element={<RoleGate path={path}><Screen /></RoleGate>} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </Shell>
  );
}

export function App() {
  const { user, isLoading, isAuthenticated } = useAuth();
  return (
    <>
      {isLoading
        ? <div className="flex min-h-screen items-center justify-center"><Spinner label="Checking your session" /></div>
        : isAuthenticated && user?.mustChangePassword
        ? (
          <Suspense fallback={<Spinner />}>
            <ForcedPasswordChange email={user.email} steps={user.signInSteps} />
          </Suspense>
        )
        : isAuthenticated
        ? <SignedInApp user={user} />
        : (
          <Suspense fallback={<Spinner />}>
            <LandingPage />
          </Suspense>
        )}
      <Toaster />
    </>
  );
}
