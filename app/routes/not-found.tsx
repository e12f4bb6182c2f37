import type { Route } from "./+types/not-found";

export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "Error 404 | Page Not Found" }];

export default function NotFound() {
  return null;
}
