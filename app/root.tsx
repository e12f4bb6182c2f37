import {
  data,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useLoaderData,
  useRouteLoaderData,
} from "react-router";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { ScriptsAfterPaint } from "./scripts-after-paint.tsx";
import { ErrorPage, RouteErrorBoundary } from "./components/error-boundary.tsx";
import { themeAttribute } from "./components/theme.ts";
import { useQueryLinkNavigation } from "./components/query-link.tsx";
import { Toaster } from "./components/toaster.tsx";
import { csrf } from "./lib/csrf.server.ts";
import { installDataRetry } from "./lib/data-retry.ts";
import { productName } from "./lib/env.server.ts";
import { useNonce } from "./lib/nonce.ts";
import { readTheme } from "./lib/preferences.server.ts";
import { getToasts } from "./lib/toast.server.ts";

// zod probes whether it may compile validators with `new Function`: under the console's policy
// (no 'unsafe-eval') the probe is refused and reported as a violation. Tell it not to try. zod
// keeps its settings on globalThis.__zod_globalConfig (and adopts an object found there), so this
// sets them without importing zod: most pages ship no zod at all, and importing `config` here put
// zod's core (3.8 KB gzip) on every one of them.
if (typeof document !== "undefined") {
  const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  (scope.__zod_globalConfig ??= {}).jitless = true;
  // A data request that fails on the network waits for Retry, the page kept (issue 63 item 32).
  installDataRetry();
}

/**
 * Styles for a browser without JavaScript only (inside <noscript>: CSP allows inline styles,
 * style-src 'unsafe-inline', app/lib/csp.server.ts).
 * - What is there for JavaScript only and keeps its place until hydration (invisible, so that
 *   nothing moves when it comes) takes no place.
 * - A dialog opened by URL is a plain <dialog open>, not a modal (app/components/dialog.tsx):
 *   everything else on the page is made inert (the shell adds `inert` to its bar and navigation,
 *   this covers the page content), so the keyboard stays in the dialog. Inert elements cannot be
 *   escaped by a descendant: it marks every element that neither holds the dialog nor is in it.
 *   Not in app.css: with JavaScript that `:has()` on <body> over every element made Chromium
 *   restyle about twice the elements on each DOM change during hydration (issue 60,
 *   bench/style-recalcs.ts), and there the dialogs are modal (showModal) anyway.
 */
export const NO_SCRIPT_CSS =
  ".js-only{display:none!important}" +
  "body:has(dialog[data-url-dialog][open]:not(:modal)) *:not(:has(dialog[data-url-dialog][open]),dialog[data-url-dialog][open],dialog[data-url-dialog][open] *){interactivity:inert}";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

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
  // The same nonce on the server and in the browser (hydration compares it).
  const nonce = useNonce();
  return (
    <html lang="en" data-theme={root ? themeAttribute(root.theme) : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The stylesheet as a React stylesheet resource (`precedence`): React writes it in the
            head before the route modules' ~30 modulepreloads. As a plain link (from `links`) it
            came after them, and a phone on slow 4G fetched ~190 KB of scripts before the CSS that
            blocks the first paint (Lighthouse mobile, issue 60: FCP and LCP waited for it). */}
        <link rel="stylesheet" href={stylesheet} precedence="app" nonce={nonce} />
        {/* No frame before the page's content (<main id="main">, after the top bar) is parsed
            whole: a browser paints while the document still arrives, and a frame drawn halfway
            through the top bar or a table's toolbar (a <details> still without its summary, the
            buttons after it still to come) moved everything in it when the rest came: the top
            bar's PCAP Analyzer button's layout shift on Lighthouse's mobile runs (issue 60).
            Without a #main (the sign-in pages) it waits for the end of the document. Chromium
            124+; other browsers ignore it. */}
        <link rel="expect" href="#main" blocking="render" />
        <noscript>
          <style>{NO_SCRIPT_CSS}</style>
        </noscript>
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="min-h-screen bg-base-200 text-base-content">
        {children}
        {root ? <Toaster toasts={root.toasts} /> : null}
        {/* The scripts in a box of their own (issue 60): after hydration React Router takes some
            of its script elements out, and a child taken out of <body> made Chromium restyle the
            whole page (daisyUI's breadcrumb rule `li + *::before` invalidates every descendant of
            the parent whose children change: 1,870 elements, ~330 ms at Lighthouse's 4× slower
            CPU on the performance tab). Taken out of this box, they restyle nothing. */}
        <div hidden>
          <ScrollRestoration nonce={nonce} />
          {/* React Router's <Scripts>, fetched after the first paint (app/scripts-after-paint.tsx). */}
          <ScriptsAfterPaint nonce={nonce} />
        </div>
      </body>
    </html>
  );
}

export default function App() {
  const { csrfToken } = useLoaderData<typeof loader>();
  useQueryLinkNavigation();
  return (
    <AuthenticityTokenProvider token={csrfToken}>
      <Outlet />
    </AuthenticityTokenProvider>
  );
}

/** The last line of defence: a clear sentence, never a stack trace (app/components/error-boundary.tsx). */
export function ErrorBoundary() {
  return <RouteErrorBoundary nested={false} />;
}

/** Kept for the routes that import it from here; the component lives in app/components/error-boundary.tsx. */
export { ErrorPage };
