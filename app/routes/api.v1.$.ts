import type { Route } from "./+types/api.v1.$";

// The platform is mounted in the console's process at /api/v1 (embedded default). With API_URL
// the console talks to a separate platform, and this route forwards there instead.
async function forward(request: Request) {
  const apiUrl = process.env.API_URL;
  if (apiUrl) {
    const url = new URL(request.url);
    return fetch(new Request(apiUrl.replace(/\/$/, "") + url.pathname + url.search, request));
  }
  const { getPlatform } = await import("../../platform/index.ts");
  return (await getPlatform()).fetch(request);
}

export const loader = ({ request }: Route.LoaderArgs) => forward(request);
export const action = ({ request }: Route.ActionArgs) => forward(request);
