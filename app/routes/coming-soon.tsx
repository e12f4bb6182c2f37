import { Link, useLocation } from "react-router";
import { pageTitles } from "../lib/titles.ts";
import { LANDING_PATH } from "../lib/redirect.ts";
import { requireAccountOwner, requireSession } from "../lib/session.server.ts";
import type { Route } from "./+types/coming-soon";

export async function loader({ request }: Route.LoaderArgs) {
  // /billing does not exist for IAM users (spec 3 §2.2).
  if (new URL(request.url).pathname === "/billing") await requireAccountOwner(request);
  else await requireSession(request);
  return null;
}

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const product = (matches[0]?.data as { productName?: string } | undefined)?.productName ?? "Linkwise";
  return [{ title: `${pageTitles[location.pathname] ?? "Page"} (coming soon) | ${product}` }];
};

/**
 * A screen that a later issue fills. It says plainly that the screen is not built yet (never a
 * title over 'No data', which reads as an empty account: issue 27 item 13) and offers the page
 * that has something.
 */
export default function ComingSoon() {
  const { pathname } = useLocation();
  const title = pageTitles[pathname] ?? "Page";
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <h1 id="page-title" className="text-2xl font-semibold">
        {title}
      </h1>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <h2 className="text-xl font-semibold">Coming soon</h2>
          <p>This screen is not available yet: it is coming in a later release. Nothing is missing from your account.</p>
          <div className="card-actions">
            <Link to={LANDING_PATH} className="btn btn-primary btn-sm">
              Go to the {pageTitles[LANDING_PATH]}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
