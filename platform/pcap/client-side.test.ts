/**
 * Client and server of a session (issue 63 item 13): by the SYN when the capture has it, else by
 * the well-known port, else by port order (a guess), and the session and report say which. The
 * conversation itself (its key, a and b, first_src) stays tshark's (agreement.test.ts).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPcapInsightsPdf } from "../reports/pcap-insights.ts";
import { analyzeBuffer } from "./analyzer.ts";
import { clientSide } from "./conversations.ts";
import { flowReport, toSession } from "./report.ts";
import { ACK, ether, ipv4, pcapFile, PSH, SYN, tcp, udp, type Bytes } from "./test-utils/capture-writer.ts";
import type { ConversationFigures } from "./types.ts";

const T = 1_700_000_000;
const CLIENT = "10.0.0.9";
const SERVER = "10.0.0.2"; // lower than CLIENT: tshark's address order puts the server first

/** One TCP or UDP packet, `fromClient` or from the server; t in ms from T. */
interface P {
  t: number;
  fromClient: boolean;
  flags?: number;
  len?: number;
}

function capture(ps: P[], ports: { client: number; server: number }, proto: "tcp" | "udp" = "tcp"): ConversationFigures {
  let cseq = 1000;
  let sseq = 9000;
  const frames = ps.map((p) => {
    const [sport, dport] = p.fromClient ? [ports.client, ports.server] : [ports.server, ports.client];
    const payload = new Uint8Array(p.len ?? 0);
    let seg: Bytes;
    if (proto === "udp") seg = udp(sport, dport, payload);
    else {
      seg = tcp({ sport, dport, seq: p.fromClient ? cseq : sseq, ack: p.fromClient ? sseq : cseq, flags: p.flags ?? ACK | PSH, payload });
      const advance = (p.len ?? 0) + ((p.flags ?? 0) & SYN ? 1 : 0);
      if (p.fromClient) cseq += advance;
      else sseq += advance;
    }
    const data = ether(0x0800, ipv4({ src: p.fromClient ? CLIENT : SERVER, dst: p.fromClient ? SERVER : CLIENT, proto: proto === "tcp" ? 6 : 17, payload: seg }));
    return { sec: T + Math.floor(p.t / 1000), frac: (p.t % 1000) * 1000, data };
  });
  const r = analyzeBuffer(pcapFile(frames));
  expect(r.conversations).toHaveLength(1);
  return r.conversations[0]!;
}

/** A download seen from its middle: the server's data first, then the client's ACK, no handshake. */
const midConnection: P[] = [
  { t: 0, fromClient: false, len: 1400 },
  { t: 1, fromClient: false, len: 1400 },
  { t: 20, fromClient: true, flags: ACK },
  { t: 21, fromClient: false, len: 900 },
];

describe("client and server of a session", () => {
  it("a capture started mid-connection: the side on port 443 is the server (by well-known port), not the first packet's sender", () => {
    const conv = capture(midConnection, { client: 51_000, server: 443 });
    // tshark's figures are unchanged: the key in address order, the first packet from the server.
    expect(conv.key).toBe(`tcp ${SERVER}:443 ${CLIENT}:51000`);
    expect(conv.first_src).toBe(`${SERVER}:443`);
    expect(conv).toMatchObject({ client: `${CLIENT}:51000`, client_chosen_by: "well-known port", app_name: "https" });
    const session = toSession(conv);
    expect(session).toMatchObject({ src_addr: CLIENT, src_port: 51_000, dst_addr: SERVER, dst_port: 443, client_chosen_by: "well-known port" });
    // tx/rx from the client's side: the download came from the server.
    expect(session.tx_bytes).toBeLessThan(session.rx_bytes);
    const report = flowReport(conv);
    expect(report.general_info).toMatchObject({ client: { addr: CLIENT, port: 51_000 }, server: { addr: SERVER, port: 443 }, client_chosen_by: "well-known port" });
    expect(report.network_data.server_to_client.payload_bytes).toBe(3700);
    expect(report.network_data.client_to_server.payload_bytes).toBe(0);
  });

  it("registered ports count as service ports (3306, 5432, 8080), ports below 1024 too", () => {
    for (const server of [3306, 5432, 8080, 873]) {
      const conv = capture(midConnection, { client: 40_123, server });
      expect([toSession(conv).dst_port, conv.client_chosen_by], String(server)).toEqual([server, "well-known port"]);
    }
  });

  it("the SYN decides when the capture has it, whatever the ports", () => {
    const handshake: P[] = [
      { t: 0, fromClient: true, flags: SYN },
      { t: 10, fromClient: false, flags: SYN | ACK },
      { t: 11, fromClient: true, flags: ACK },
      { t: 12, fromClient: true, len: 200 },
      { t: 30, fromClient: false, len: 1400 },
    ];
    // A client on a service port (a server's own outgoing connection from 443 to a high port).
    const conv = capture(handshake, { client: 443, server: 52_000 });
    expect(conv).toMatchObject({ client: `${CLIENT}:443`, client_chosen_by: "SYN" });
    expect(toSession(conv)).toMatchObject({ src_port: 443, dst_port: 52_000, client_chosen_by: "SYN" });
    // The SYN itself missed, its answer caught: the SYN-ACK's receiver is the client.
    const late = capture(handshake.slice(1), { client: 443, server: 52_000 });
    expect(late).toMatchObject({ client: `${CLIENT}:443`, client_chosen_by: "SYN" });
  });

  it("neither or both on a service port: the lower port is taken as the server's, said to be a guess", () => {
    const conv = capture(midConnection, { client: 50_000, server: 40_000 });
    expect(conv).toMatchObject({ client: `${CLIENT}:50000`, client_chosen_by: "port order" });
    // The server answered first, from the higher port: the guess names it the client.
    const wrong = capture(midConnection, { client: 40_000, server: 50_000 });
    expect(toSession(wrong)).toMatchObject({ src_port: 50_000, dst_port: 40_000, client_chosen_by: "port order" });
    expect(clientSide("udp", 53, 53, null, true)).toEqual({ clientIsA: true, by: "port order" });
    expect(clientSide("udp", 53, 53, null, false)).toEqual({ clientIsA: false, by: "port order" });
  });

  it("UDP: a DNS answer caught before its question still has the resolver as the server", () => {
    const conv = capture(
      [
        { t: 0, fromClient: false, len: 120 },
        { t: 5, fromClient: true, len: 40 },
      ],
      { client: 40_001, server: 53 },
      "udp",
    );
    expect(conv.first_src).toBe(`${SERVER}:53`);
    expect(toSession(conv)).toMatchObject({ src_port: 40_001, dst_port: 53, client_chosen_by: "well-known port", app_name: "dns" });
  });

  it("an analysis stored before the rule keeps the first packet's source as the client, and says no rule", () => {
    const conv = capture(midConnection, { client: 51_000, server: 443 });
    const { client: _client, client_chosen_by: _by, ...stored } = conv;
    expect(toSession(stored)).toMatchObject({ src_port: 443, dst_port: 51_000, client_chosen_by: null });
    expect(flowReport(stored).general_info.client_chosen_by).toBeNull();
  });

  it("the insights PDF says which side is the client and by which rule", async () => {
    const conv = capture(midConnection, { client: 51_000, server: 443 });
    const pdf = await renderPcapInsightsPdf({
      productName: "Linkwise",
      fileName: "mid-connection.pcap",
      session: { ...toSession(conv), ep_id: null, app_service_id: null, node_id: null },
      report: flowReport(conv),
      generatedAt: new Date("2026-12-03T00:00:00Z"),
    });
    const file = path.join(os.tmpdir(), `client-side-${process.pid}.pdf`);
    let text: string;
    try {
      fs.writeFileSync(file, pdf);
      text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    } catch {
      return; // no poppler here: the data above is what the PDF prints
    } finally {
      fs.rmSync(file, { force: true });
    }
    expect(text).toContain(`TCP ${CLIENT}:51000 to ${SERVER}:443 (https); client by well-known port`);
    expect(text).toContain("Client and server");
    expect(text).toContain("by well-known port: the capture has no SYN");
    expect(text).toContain("the server is the side on the service port");
  });
});
