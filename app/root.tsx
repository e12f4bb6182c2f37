import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRevalidator,
  useRouteLoaderData,
} from "react-router";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { themeAttribute } from "./components/theme.ts";
import { Toaster } from "./components/toaster.tsx";
import { csrf } from "./lib/csrf.server.ts";
import { productName } from "./lib/env.server.ts";
import { readTheme } from "./lib/preferences.server.ts";
import { getToasts } from "./lib/toast.server.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const [csrfToken, csrfCookie] = await csrf.commitToken(request);
  const { toasts, setCookie } = await getToasts(request);
  const headers = new Headers();
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  // The theme cookie: the server renders the chosen theme (no flash); without it, CSS follows the system.
  const theme = readTheme(request);
  return data({ csrfToken, toasts, productName, theme }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en" data-theme={root ? themeAttribute(root.theme) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-base-200 text-base-content">
        {children}
        {root ? <Toaster toasts={root.toasts} /> : null}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { csrfToken } = useLoaderData<typeof loader>();
  return (
    <AuthenticityTokenProvider token={csrfToken}>
      <Outlet />
    </AuthenticityTokenProvider>
  );
}

/** The last line of defence: a clear sentence, never a stack trace. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

/** `nested`: rendered inside the shell's <main> (a section then), or as the whole page. */
export function ErrorPage({ error, nested = false }: { error: unknown; nested?: boolean }) {
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

  let title = "Something went wrong";
  let message = "An unexpected error occurred. Please try again.";
  if (unavailable) {
    title = "Service unavailable";
    message = "The service is unavailable right now. This page will retry by itself.";
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
            {unavailable ? (
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
