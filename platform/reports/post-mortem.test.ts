import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { formatTime } from "../../app/lib/format.ts";
import { eventsOf, fleetObjectOf, requireNode } from "../domain/devices.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { expectEmbeddedFonts, readPdf, WORLD_NAME } from "../test/pdf.ts";
import { renderPostMortemPdf } from "./post-mortem.ts";

/*
 * The post-mortem PDF (./post-mortem.ts, issue 63 items 10 and 11): a device named in four scripts
 * prints whole in embedded subset fonts, the title too; a paragraph with bold runs is one text
 * (no line starts with the comma after a bold run); times read as the console shows them.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe("the post-mortem PDF", () => {
  it("prints the device's name in any script in embedded subset fonts, its summary as one sentence, times as the console shows them", async () => {
    const a = await p.newAccount();
    const r = await p.call("POST", "create_cpe", {
      token: a.token,
      body: { cpe_name: WORLD_NAME, prod_code: "BN-CPE-500", site_address: "1 Martin Place, Sydney NSW 2000", latitude: -33.8675, longitude: 151.2099 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.cpe_id as string;
    // Its record began 90 days ago: it has outages (the fleet gives ~3 a month).
    await p.deps.db.execute(sql`update cpes set created_at = now() - interval '90 days' where cpe_id = ${id}`);
    const d = await requireNode(p.deps.db, a.accountId, id);
    const events = await eventsOf(p.deps.db, d);
    const now = Date.now();
    const o = fleetOf(p.deps)
      .outages(fleetObjectOf(d), { start: now - 90 * 86_400_000, end: now }, now, { events, target: d.ipMonitorTarget ?? undefined })
      .find((x) => x.end_time)!;
    expect(o).toBeDefined();

    const res = await p.app.fetch(new Request(`http://platform.test/api/v1/dashboard_get_post_mortem_pdf?node_id=${id}&outage_id=${o.outage_id}`, { headers: { authorization: `Bearer ${a.token}` } }));
    expect(res.status).toBe(200);
    const pdf = readPdf(Buffer.from(await res.arrayBuffer()));
    expect(pdf.flat).toContain(`Post-mortem: outage of ${WORLD_NAME} (${id})`);
    expectEmbeddedFonts(pdf);
    expect(pdf.info.Title).toBe(`Post-mortem: outage of ${WORLD_NAME} (${id})`);

    // The summary: its bold runs (the name, the duration) inside one sentence, its times the console's.
    expect(pdf.flat).toMatch(new RegExp(`The WAN link of ${WORLD_NAME} \\(${id}\\) was down for [0-9a-z ]+, from ${formatTime(o.start_time)} to ${formatTime(o.end_time)}\\.`));
    expect(pdf.flat).toContain(`${formatTime(o.start_time)}: the monitor lost the link`);
    expect(pdf.flat).toContain(`${formatTime(o.end_time)}: `);
    expect(pdf.text).not.toMatch(iso);
    for (const line of pdf.text.split("\n")) expect(line, line).not.toMatch(/^\s*[,.;:)]/);
  });

  it("never starts a line with the text after a bold run, wherever the run ends", async () => {
    // The bold name grows by one letter a paragraph, so that its end meets the end of a line in some.
    const paragraphs = Array.from({ length: 40 }, (_, i) => `The WAN link of **Site ${"m".repeat(i + 1)} (cpe-${i})** was down for **7 min 25 s**, from 2026-09-17T02:33:16.000Z to 2026-09-17T02:40:41.000Z (UTC).`);
    const pdf = readPdf(
      await renderPostMortemPdf(
        { device_id: "cpe-1", outage_id: "out-1", start_time: "2026-09-17T02:33:16.000Z", end_time: "2026-09-17T02:40:41.000Z", markdown: `# Post-mortem\n\n${paragraphs.join("\n\n")}\n` },
        { destination: "8.8.8.8", up_timestamp_utc: "2026-09-18T00:00:00.000Z", down_timestamp_utc: null, up_hops: [], down_hops: [] },
        { productName: "Linkwise", generatedAt: new Date("2026-09-18T00:00:00.000Z") },
      ),
    );
    for (let i = 0; i < paragraphs.length; i++) expect(pdf.flat).toContain(`The WAN link of Site ${"m".repeat(i + 1)} (cpe-${i}) was down for 7 min 25 s, from 2026-09-17 02:33 UTC to 2026-09-17 02:40 UTC.`);
    for (const line of pdf.text.split("\n")) expect(line, line).not.toMatch(/^\s*[,.;:)]/);
    expect(pdf.text).not.toMatch(iso);
  });
});
