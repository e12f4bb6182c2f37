import { platformFetch } from "../lib/platform.server.ts";
import type { Route } from "./+types/api.v1.$";

// The platform is mounted in the console's process at /api/v1 (embedded default, on its own
// thread). With API_URL the console talks to a separate platform, and this route forwards there.
// Either way through platformFetch, which sets this request's X-Request-Id (in place of one the
// client sent) and traceparent.
async function forward(request: Request) {
  const apiUrl = process.env.API_URL;
  if (apiUrl) {
    const url = new URL(request.url);
    return platformFetch(new Request(apiUrl.replace(/\/$/, "") + url.pathname + url.search, request));
  }
  return platformFetch(request);
}

export const loader = ({ request }: Route.LoaderArgs) => forward(request);
export const action = ({ request }: Route.ActionArgs) => forward(request);
