import { useEffect } from "react";
import { isRouteErrorResponse, useRevalidator, useRouteError, useRouteLoaderData } from "react-router";
import { FETCH_FAILED } from "./data-request-notice.tsx";
import { UNAVAILABLE } from "../lib/messages.ts";

/*
 * The console's one route error boundary (docs/decisions/2026-11-23-hardening.md): root.tsx and
 * every route that needs a boundary use it, so every error reads the same ('Error 404',
 * 'Access denied', 'Service unavailable' that retries by itself, never a stack trace):
 *
 *   export { RouteErrorBoundary as ErrorBoundary } from "../components/error-boundary.tsx";
 */

/** What browsers say when a fetch or a module import got no answer (Chromium, Firefox, Safari). */
const FETCH_FAILURE = /failed to fetch|networkerror|load failed|dynamically imported module|importing a module script failed/i;

/** A route's ErrorBoundary: the error page of the error React Router caught. */
export function RouteErrorBoundary({ nested }: { nested?: boolean } = {}) {
  const error = useRouteError();
  return <ErrorPage error={error} nested={nested} />;
}

/**
 * The error page. `nested`: inside the shell's <main> (a section then), or the whole page (its own
 * <main>); by default, nested when the shell's data is there.
 */
export function ErrorPage({ error, nested }: { error: unknown; nested?: boolean }) {
  // Inside the shell (its data is there), the shell's <main> holds the error: a section then.
  const inShell = useRouteLoaderData("routes/_shell") !== undefined;
  nested ??= inShell;
  const unavailable =
    isRouteErrorResponse(error) && (error.status === 503 || (error.data as { reason?: string } | undefined)?.reason === "service-unavailable");
  const revalidator = useRevalidator();
  const product = (useRouteLoaderData("root") as { productName?: string } | undefined)?.productName ?? "Linkwise";
  useEffect(() => {
    if (!unavailable) return;
    // Recover by itself once the platform is back.
    const timer = setInterval(() => revalidator.revalidate(), 5000);
    return () => clearInterval(timer);
  }, [unavailable, revalidator]);

  // The browser could not fetch what the page needs (its code: a data request waits for Retry
  // instead, app/lib/data-retry.ts): spec 1 §8's words, and a reload (issue 63 item 32).
  const fetchFailed = error instanceof TypeError && FETCH_FAILURE.test(error.message);
  let title = "Something went wrong";
  let message = "An unexpected error occurred. Please try again.";
  if (fetchFailed) {
    title = FETCH_FAILED;
    message = "Check the connection, then try again.";
  } else if (unavailable) {
    title = "Service unavailable";
    message = UNAVAILABLE;
  } else if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Error 404";
      message = "Page Not Found";
    } else if (error.status === 403) {
      title = "Access denied";
      message = typeof error.data === "string" ? error.data : ((error.data as { message?: string })?.message ?? "You do not have permission to see this page.");
    } else {
      title = `Error ${error.status}`;
      message = typeof error.data === "string" ? error.data : ((error.data as { message?: string })?.message ?? error.statusText ?? message);
    }
  } else if (error instanceof Error) {
    console.error(error);
  }
  const Wrapper = nested ? "section" : "main";
  return (
    <Wrapper className="flex min-h-[60vh] items-center justify-center p-6" aria-labelledby="error-title">
      <title>{`${title} | ${product}`}</title>
      <div className="card bg-base-100 w-full max-w-lg shadow">
        <div className="card-body items-center text-center">
          <h1 id="error-title" className="card-title text-2xl">
            {title}
          </h1>
          <p>{message}</p>
          <div className="card-actions">
            {unavailable || fetchFailed ? (
              <a className="btn btn-primary" href="">
                Try again
              </a>
            ) : (
              <a className="btn btn-primary" href="/main-dashboard">
                Back to Dashboard
              </a>
            )}
          </div>
        </div>
      </div>
    </Wrapper>
  );
}
