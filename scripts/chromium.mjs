// Where the end-to-end tests find a Chromium (used by playwright.config.ts and scripts/test.mjs).
import fs from "node:fs";
import { createRequire } from "node:module";

export const NO_CHROMIUM = "No Chromium: install one (apt-get install chromium-headless-shell, or chromium) or set CHROMIUM_PATH";

/** The Chromium Playwright would download with `npx playwright install chromium`, if it is there. */
export function playwrightChromium() {
  try {
    const { chromium } = createRequire(import.meta.url)("playwright-core");
    const p = chromium.executablePath();
    return p && fs.existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CHROMIUM_PATH, else a system Chromium, else Playwright's own download. Debian's headless shell
 * (package chromium-headless-shell) comes first: it is Chromium without the browser's own UI
 * layer, and on a 2-core machine it ran the same end-to-end specs in ¾ of the time of the full
 * browser (entities.spec: 101 s against 136 s). `undefined` when there is none.
 * `executable` is what to give Playwright's launchOptions (undefined = its own download).
 */
export function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    return fs.existsSync(process.env.CHROMIUM_PATH) ? { path: process.env.CHROMIUM_PATH, executable: process.env.CHROMIUM_PATH } : undefined;
  }
  for (const p of ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"]) {
    if (fs.existsSync(p)) return { path: p, executable: p };
  }
  const own = playwrightChromium();
  return own ? { path: own, executable: undefined } : undefined;
}
