import zlib from "node:zlib";

/*
 * The JavaScript a browser loads for each page (bench/run.ts): the chunks' names, their gzip
 * size, and whether any of them holds chart code. Chart code is told by what a chunk contains,
 * not by its name (rolldown names a shared chunk after any of its modules): chart.js's own error
 * text, or the chart kit's SVG class names (the kit's module, d3 with it).
 */

const CHART_MARKS = ["Canvas is already in use", "chart-x-tick", "chart-y-labels"];
const isChartCode = (source: string) => CHART_MARKS.some((m) => source.includes(m));

export interface PageJs {
  kb: number;
  names: string[];
  /** The chunks holding chart code. */
  chartChunks: string[];
}

/** Loads each url in a fresh page of a browser holding `cookie` (a "name=value; …" header) and reports its scripts. */
export async function pagesJs(base: string, cookie: string, urls: readonly string[]): Promise<PageJs[]> {
  const { chromium } = await import("@playwright/test");
  const { chromiumPath } = await import("../tests/e2e/env.ts");
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  try {
    const context = await browser.newContext();
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base };
      }),
    );
    const out: PageJs[] = [];
    for (const url of urls) {
      const p = await context.newPage();
      let total = 0;
      const names: string[] = [];
      const chartChunks: string[] = [];
      const pending: Promise<void>[] = [];
      p.on("response", (res) => {
        if (res.request().resourceType() !== "script" && !res.url().endsWith(".js")) return;
        const name = res.url().split("/").pop() ?? "";
        names.push(name);
        pending.push(
          res
            .body()
            .then((b) => {
              total += zlib.gzipSync(b).length;
              if (isChartCode(b.toString("utf8"))) chartChunks.push(name);
            })
            .catch(() => {}),
        );
      });
      await p.goto(url, { waitUntil: "networkidle" });
      // A page with charts loads chart.js after hydration (a lazy import): wait for the canvases.
      if (await p.locator("figure.chart").count()) await p.locator("figure.chart canvas").first().waitFor({ timeout: 15_000 }).catch(() => {});
      await p.waitForLoadState("networkidle");
      await Promise.all(pending);
      await p.close();
      out.push({ kb: Math.round((total / 1024) * 10) / 10, names, chartChunks });
    }
    return out;
  } finally {
    await browser.close();
  }
}
