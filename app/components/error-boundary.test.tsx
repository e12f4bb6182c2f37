import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorPage } from "./error-boundary.tsx";

function errorPageHtml(error: unknown) {
  const Stub = createRoutesStub([{ path: "/contacts", Component: () => <ErrorPage error={error} nested={false} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={["/contacts"]} />);
}

describe("ErrorPage", () => {
  it("says spec 1 §8's words when the browser could not fetch what the page needs, with a reload (issue 63 item 32)", () => {
    for (const message of ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Failed to fetch dynamically imported module: /assets/route-x.js"]) {
      const html = errorPageHtml(new TypeError(message));
      expect(html).toContain('<h1 id="error-title" class="card-title text-2xl">An error occurred while fetching data.</h1>');
      expect(html).toContain('<a class="btn btn-primary" href="">Try again</a>');
      expect(html).not.toContain("Something went wrong");
    }
  });

  it("keeps 'Something went wrong' for any other error", () => {
    const html = errorPageHtml(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(html).toContain("Something went wrong");
    expect(html).toContain('href="/main-dashboard">Back to Dashboard</a>');
  });
});
