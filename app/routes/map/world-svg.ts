import { worldSvgDocument } from "../../components/map/geometry.server.ts";
import { WORLD_ATLAS_VERSION } from "../../components/map/model.ts";

/*
 * The countries every server-drawn map shows (`<use href="/map/world.svg?v=…#world">`, map kit
 * README): drawn once per process from the world-atlas package, public (it holds nothing of an
 * account) and cached for a year, its URL versioned (WORLD_SVG_URL).
 */
export function loader() {
  return new Response(worldSvgDocument(), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "X-World-Atlas-Version": WORLD_ATLAS_VERSION,
    },
  });
}
