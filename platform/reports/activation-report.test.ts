import { beforeAll, describe, expect, it } from "vitest";
import { startTest } from "../domain/device-tests.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { expectEmbeddedFonts, readPdf, WORLD_NAME } from "../test/pdf.ts";

/*
 * The activation test report PDF (./activation-report.ts) of a device named in four scripts
 * (issue 63 item 10): the name prints whole in the table, the page foot and the document's title,
 * in embedded subset fonts.
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

describe("the activation test report PDF", () => {
  it("prints the device's name in any script (Latin, CJK, Greek, Cyrillic) in embedded subset fonts, the title too", async () => {
    const a = await p.newAccount();
    const r = await p.call("POST", "create_metro", {
      token: a.token,
      body: { metro_name: WORLD_NAME, prod_code: "BN-METRO-1000F", site_address: "100 King St W, Toronto", latitude: 43.6487, longitude: -79.3817, wan_cir_mbps: 200, wan_eir_mbps: 50 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.metro_id as string;
    // Started long enough ago to have ended, its 15-minute service performance test included (or
    // failed at once, were the link down): a report either way.
    const { sse_id } = await startTest(p.deps, a.accountId, "metro", id, { peer_ip: "192.0.2.10" }, undefined, Date.now() - 60 * 60_000);

    const res = await p.app.fetch(new Request(`http://platform.test/api/v1/get_metro_test_report_pdf?metro_id=${id}`, { headers: { authorization: `Bearer ${a.token}` } }));
    expect(res.status).toBe(200);
    const pdf = readPdf(Buffer.from(await res.arrayBuffer()));
    expect(pdf.flat).toContain(`${WORLD_NAME} (${id}), Metro Ethernet NID`);
    expect(pdf.flat).toContain(`Linkwise - ${WORLD_NAME} - ${sse_id} - page 1 of`);
    expectEmbeddedFonts(pdf);
    expect(pdf.info.Title).toBe(`Service activation test report: ${WORLD_NAME}`);
  });
});
