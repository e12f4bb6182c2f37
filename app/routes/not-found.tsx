import { data, Link } from "react-router";
import { PageTitle } from "../components/forms.tsx";

/*
 * The catch-all inside the shell (spec 1 §2, spec 3 §2.2): any unknown route answers 404 with
 * 'Error 404', 'Page Not Found' and a way back to /main-dashboard. It renders inside the shell,
 * so a signed-in user keeps the navigation.
 */

export async function loader() {
  return data({ notFound: true }, { status: 404 });
}

export default function NotFound() {
  return (
    <section aria-labelledby="page-title" className="flex min-h-[50vh] items-center justify-center">
      <PageTitle title="Page Not Found" />
      <div className="card bg-base-100 w-full max-w-lg shadow-sm">
        <div className="card-body items-center text-center">
          <h1 id="page-title" className="text-3xl font-bold">
            Error 404
          </h1>
          <p className="text-lg">Page Not Found</p>
          <div className="card-actions mt-2">
            <Link to="/main-dashboard" className="btn btn-primary">
              Back to Dashboard
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
