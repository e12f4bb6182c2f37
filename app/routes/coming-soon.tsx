import { useLocation } from "react-router";
import { pageTitles } from "../lib/titles.ts";
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
  return [{ title: `${pageTitles[location.pathname] ?? "Page"} | ${product}` }];
};

/** A screen that a later issue fills: its title and 'No data' until then. */
export default function ComingSoon() {
  const { pathname } = useLocation();
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <h1 id="page-title" className="text-2xl font-semibold">
        {pageTitles[pathname] ?? "Page"}
      </h1>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <p className="text-base-content/70">No data</p>
        </div>
      </div>
    </section>
  );
}
