import { serve } from "@hono/node-server";
import { createPlatform } from "./index.ts";

// The platform on its own (scaled deployment): `npm run start:platform`.
const port = Number(process.env.PLATFORM_PORT ?? process.env.PORT ?? 8000);
const platform = await createPlatform();
const server = serve({ fetch: platform.app.fetch, port }, (info) => {
  console.log(`[platform] listening on http://localhost:${info.port}/api/v1 (${platform.deps.dbKind})`);
});

// Stop cleanly: the fleet clock releases its lock (another instance takes over at its next tick).
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.close();
    platform.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
