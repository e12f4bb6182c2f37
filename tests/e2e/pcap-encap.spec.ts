import type { Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { expect, expectAccessible, jsDisabled, ready, test, toast } from "./fixtures.ts";
import { analysisProgress, refreshUntilAnalysed } from "./pcap-helpers.ts";

/*
 * The PCAP Analyzer on mirrored cloud traffic (issue 59; docs/decisions/2026-12-03-pcap-mirror-sessions.md):
 * a VXLAN capture names its encapsulation and mirror sessions (VNIs), the sessions table has a
 * Mirror Session column and a filter by VNI (`?vni=`), the report names the session's mirror
 * session; a mirror on a non-standard UDP port is found with the upload's decode-as fields. Both
 * projects: with JavaScript (XHR upload) and without (multipart form, Refresh).
 */

const dir = path.resolve(process.cwd(), "tests/fixtures/pcaps/encap");
interface Expected {
  packets: number;
  sessions: { name: string; vni: number; encapsulation: string }[];
  conversations: { session: string }[];
}
const expectedOf = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, "expected", `${name}.json`), "utf8")) as Expected;

const sessions = (page: Page) => page.getByRole("table", { name: "Sessions" });
const report = (page: Page) => page.getByRole("dialog", { name: "Flow Analysis Report" });
const note = (page: Page) => page.getByTestId("pcap-encapsulation");

async function openAnalyzer(page: Page) {
  await page.goto("/pcap-analyzer");
  await ready(page);
}

/** Fills the decode-as fields (in their disclosure, before the file). */
async function decodeAs(page: Page, port: string, encapsulation: string) {
  await page.getByText("Mirrored traffic on another port (decode as)").click();
  await page.getByLabel("UDP port").fill(port);
  await page.getByLabel("Encapsulation").selectOption(encapsulation);
}

async function upload(page: Page, name: string) {
  await page.getByLabel("PCAP file").setInputFiles(path.join(dir, "captures", `${name}.pcap`));
  if (jsDisabled(test.info())) await page.getByRole("button", { name: "Upload and analyze" }).click();
  await refreshUntilAnalysed(page);
  await expect(toast(page, "Successfully analyzed.")).toBeVisible({ timeout: 30_000 });
  await expect(analysisProgress(page)).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`[?&]name=${name}\\.pcap`));
}

test("a VXLAN capture: its encapsulation and mirror sessions, the VNI filter, the report's mirror session", async ({ page, account, signIn }) => {
  test.setTimeout(90_000);
  const expected = expectedOf("vxlan-kernel");
  await signIn(account);
  await openAnalyzer(page);
  await upload(page, "vxlan-kernel");

  await expect(page.getByTestId("pcap-summary")).toContainText(`${expected.packets} packets`);
  await expect(note(page)).toContainText("encapsulated in VXLAN");
  await expect(note(page)).toContainText(`${expected.sessions.length} mirror sessions`);
  for (const s of expected.sessions) await expect(note(page)).toContainText(`VXLAN VNI ${s.vni} between`);
  await expect(sessions(page).getByRole("columnheader", { name: /^Mirror Session/ })).toBeVisible();
  await expect(sessions(page).locator("tbody tr")).toHaveCount(expected.conversations.length);
  await expectAccessible(page);

  // The sessions of VNI 100 only (a GET form: the URL holds the filter).
  const vni100 = expected.conversations.filter((c) => c.session.startsWith("vxlan:100@")).length;
  expect(vni100).toBeLessThan(expected.conversations.length);
  await page.getByLabel("Mirror session (VNI)").selectOption("100");
  await page.getByTestId("pcap-vni-filter").getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]vni=100(&|$)/);
  await expect(sessions(page).locator("tbody tr")).toHaveCount(vni100);
  for (const row of await sessions(page).locator("tbody tr").all()) await expect(row).toContainText("VXLAN VNI 100");
  await expect(page.getByLabel("Mirror session (VNI)")).toHaveValue("100");
  await expectAccessible(page);

  // The report names the mirror session, and so does the PDF (the platform's; its text is checked in platform tests).
  await sessions(page).getByRole("link", { name: /open the report of this session/ }).first().click();
  await expect(report(page)).toBeVisible();
  await expect(report(page).getByTestId("report-mirror-session")).toHaveText("VXLAN VNI 100 between 192.0.2.1 and 192.0.2.2");
  await expect(page).toHaveURL(/[?&]vni=100&/);

  // Back to all mirror sessions.
  await report(page).getByRole("link", { name: "Close", exact: true }).last().click();
  await page.getByLabel("Mirror session (VNI)").selectOption("");
  await page.getByTestId("pcap-vni-filter").getByRole("button", { name: "Filter" }).click();
  await expect(page).not.toHaveURL(/[?&]vni=\d/);
  await expect(sessions(page).locator("tbody tr")).toHaveCount(expected.conversations.length);
});

test("decode-as: VXLAN on UDP 8472 is found only with the upload's decode-as fields, which are checked", async ({ page, account, signIn }, testInfo) => {
  test.setTimeout(120_000);
  const expected = expectedOf("vxlan-port-8472");
  await signIn(account);
  await openAnalyzer(page);

  // A port without its encapsulation is refused before the upload (JS: beside the fields; without: a toast, nothing stored).
  await page.getByText("Mirrored traffic on another port (decode as)").click();
  await page.getByLabel("UDP port").fill("8472");
  await page.getByLabel("PCAP file").setInputFiles(path.join(dir, "captures", "vxlan-port-8472.pcap"));
  if (jsDisabled(testInfo)) {
    await page.getByRole("button", { name: "Upload and analyze" }).click();
    await expect(toast(page, "Choose the encapsulation carried on that port.")).toBeVisible();
    await expect(page).not.toHaveURL(/[?&]key=/);
  } else {
    await expect(page.getByRole("alert").filter({ hasText: "Choose the encapsulation carried on that port." })).toBeVisible();
    await expect(page.getByLabel("UDP port")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page);
  }

  // Without decode-as the capture is plain UDP to port 8472: no mirror session.
  await openAnalyzer(page);
  await upload(page, "vxlan-port-8472");
  await expect(note(page)).toHaveCount(0);
  await expect(sessions(page).getByRole("columnheader", { name: /^Mirror Session/ })).toHaveCount(0);
  await expect(sessions(page).locator("tbody tr").first()).toContainText(":8472");

  // With it: the mirror sessions, as tshark -d udp.port==8472,vxlan finds them.
  await openAnalyzer(page);
  await decodeAs(page, "8472", "vxlan");
  await upload(page, "vxlan-port-8472");
  await expect(note(page)).toContainText("encapsulated in VXLAN");
  await expect(note(page)).toContainText(`${expected.sessions.length} mirror sessions`);
  await expect(note(page)).toContainText("decoded as udp.port==8472,vxlan");
  await expect(sessions(page).locator("tbody tr")).toHaveCount(expected.conversations.length);
  await expect(page).not.toHaveURL(/decode_as=/);
});
