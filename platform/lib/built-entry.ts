import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The plain-JavaScript build of a thread's entry (`npm run build` writes them to build/platform/:
 * scripts/build-platform.mjs), when the calling module itself runs from a build: from a bundle in
 * build/platform/ (the platform) or in build/server/ or build/server/assets/ (the console's). Run from
 * the TypeScript sources (tsx, Vitest, Vite's dev server) it answers null, and the caller starts the
 * TypeScript entry as before, so that what runs is the source being edited.
 *
 * `moduleUrl` is the caller's `import.meta.url` (in a bundle: the bundle's file).
 */
export function builtEntry(moduleUrl: string, file: string): string | null {
  if (!moduleUrl.startsWith("file:")) return null;
  const here = fileURLToPath(moduleUrl);
  if (/\.[cm]?tsx?$/.test(here)) return null;
  let dir = dirname(here);
  for (let up = 0; up < 3; up++, dir = dirname(dir)) {
    for (const candidate of [join(dir, file), join(dir, "platform", file)]) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}
