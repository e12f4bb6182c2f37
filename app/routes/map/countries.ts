import world from "world-atlas/countries-110m.json";
import { WORLD_ATLAS_VERSION } from "../../components/map/model.ts";

/*
 * The world of the map kit (app/components/map/README.md), from our own origin: the world-atlas
 * package's countries-110m TopoJSON, as it is. Public (it holds nothing of an account) and cached
 * for a year: its URL carries the package's version (WORLD_URL), so an update is a new URL.
 */
let body: string | null = null;

export function loader() {
  body ??= JSON.stringify(world);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "X-World-Atlas-Version": WORLD_ATLAS_VERSION,
    },
  });
}
