import { serve } from "@hono/node-server";
import { createPlatform } from "./index.ts";
import { configFromEnv } from "./lib/config.ts";
import { configOrExit } from "./lib/env-schema.ts";

// The platform on its own (scaled deployment): `npm run start:platform`. Its configuration is
// checked first: a variable missing or malformed ends the process with one line naming it.
const config = configOrExit(() => configFromEnv());
const platform = await createPlatform(config);
const server = serve({ fetch: platform.app.fetch, port: config.port }, (info) => {
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
