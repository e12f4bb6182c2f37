import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { monthWindow } from "../domain/availability.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { expectEmbeddedFonts, readPdf, WORLD_NAME } from "../test/pdf.ts";

/*
 * The SLA report PDF (./sla-report.ts) of an entity and its device both named in four scripts
 * (issue 63 item 10): every name prints whole — in the heading, the device table and the
 * document's title — in embedded, subset fonts.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const lastMonth = () => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

describe("the SLA report PDF", () => {
  it("prints names in any script (Latin, CJK, Greek, Cyrillic) in embedded subset fonts, the title too", async () => {
    const a = await p.newAccount();
    const post = (call: string, body: unknown) => p.call("POST", call, { token: a.token, body });
    expect((await post("create_entity", { entity_name: WORLD_NAME, description: "", parent_entity_name: "" })).status).toBe(200);
    const cpe = await post("create_cpe", { cpe_name: WORLD_NAME, prod_code: "BN-CPE-500", site_address: "1 Martin Place, Sydney", latitude: -33.87, longitude: 151.21, entity_name: WORLD_NAME });
    expect(cpe.status, JSON.stringify(cpe.body)).toBe(200);
    const id = cpe.body.cpe_id as string;
    // Its record began before last month: the month is counted whole.
    await p.deps.db.execute(sql`update cpes set created_at = ${new Date(monthWindow(lastMonth()).start - 86_400_000).toISOString()}::timestamptz where cpe_id = ${id}`);
    const entityId = (await p.call("GET", "get_entity", { token: a.token })).body.find((e: { entity_name: string }) => e.entity_name === WORLD_NAME).entity_id as string;

    const res = await p.app.fetch(new Request(`http://platform.test/api/v1/get_sla_report_pdf?entity_id=${entityId}&month=${lastMonth()}`, { headers: { authorization: `Bearer ${a.token}` } }));
    expect(res.status).toBe(200);
    const pdf = readPdf(Buffer.from(await res.arrayBuffer()));
    expect(pdf.flat).toContain(`SLA report: ${WORLD_NAME}`);
    expect(pdf.flat).toContain(`${WORLD_NAME} (${id})`);
    expect(pdf.text).not.toContain("?");
    expectEmbeddedFonts(pdf);
    // The Chinese characters come from a CJK font: a font of its own beside Noto Sans.
    expect(pdf.fonts.map((f) => f.name.slice(7)).sort()).toEqual(expect.arrayContaining(["NotoSans-Bold", "NotoSans-Regular", "NotoSansSC-Bold", "NotoSansSC-Regular"]));
    expect(pdf.info.Title).toBe(`SLA report ${lastMonth()}: ${WORLD_NAME}`);
    expect(pdf.info.Pages).toBe("1");
  });
});
