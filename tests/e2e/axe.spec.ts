import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

/*
 * The fixtures' axe scan itself (expectAccessible), which skips what it already found clean in the
 * run (states of the same markup, rows of the same shape, the dark scheme for all but the colour
 * rules): it must still find a contrast too low in one scheme only, one bad row among many of the
 * same markup, and a new colour on a page whose other colours were found clean before.
 */

/** A page of its own markup (the run's clean states are keyed by markup: each test's is new). */
async function show(page: Page, name: string, body: string, css = "") {
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>${name}</title><style>
      body { background: #fff; color: #111; font: 16px sans-serif }
      @media (prefers-color-scheme: dark) { body { background: #111; color: #eee } }
      ${css}</style></head><body><main data-case="${name}"><h1>${name}</h1>${body}</main></body></html>`,
  );
}

test("a contrast too low in the dark scheme only is found, and named so", async ({ page }) => {
  await show(page, "dark only", `<p id="dim" class="dim">Dim in the dark</p>`, "@media (prefers-color-scheme: dark) { .dim { color: #333 } }");
  await expect(expectAccessible(page)).rejects.toThrow(/color-contrast \(serious, dark\)[\s\S]*#dim/);
});

test("one row of low contrast among rows of the same markup is found", async ({ page }) => {
  const rows = Array.from({ length: 20 }, (_, i) => `<tr><td>Device ${i}</td><td${i === 13 ? ' id="faint" class="faint"' : ""}>up</td></tr>`).join("");
  await show(page, "rows", `<table><caption>Devices</caption><tbody>${rows}</tbody></table>`, ".faint { color: #ccc }");
  await expect(expectAccessible(page)).rejects.toThrow(/color-contrast \(serious, light\)[\s\S]*#faint/);
});

test("a colour new to a page is checked although the rest was found clean before", async ({ page }) => {
  await show(page, "clean first", `<p>Readable</p><p class="note">Also readable</p>`, ".note { color: #333 } @media (prefers-color-scheme: dark) { .note { color: #ccc } }");
  await expectAccessible(page);
  // The same colours again, and one new one (light grey on white): only that one fails.
  await show(page, "then one more", `<p>Readable</p><p class="note">Also readable</p><p id="pale" class="pale">Pale</p>`, ".note { color: #333 } .pale { color: #bbb } @media (prefers-color-scheme: dark) { .note { color: #ccc } }");
  await expect(expectAccessible(page)).rejects.toThrow(/color-contrast \(serious, light\)[\s\S]*#pale/);
});
