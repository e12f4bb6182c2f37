import { Outlet } from "react-router";
import { requireSession } from "../lib/session.server.ts";
import type { Route } from "./+types/_shell";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  return { user };
}

export default function Shell() {
  return (
    <main className="p-6">
      <Outlet />
    </main>
  );
}
