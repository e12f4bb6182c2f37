import { describe, expect, it } from "vitest";
import type { PcapSession } from "../contract/pcap.ts";
import { querySessions } from "./pcap-sessions.ts";

const row = (i: number, over: Partial<PcapSession> = {}): PcapSession => ({
  session_id: String(i),
  start_time: `2024-01-01T00:00:${String(i).padStart(2, "0")}.000000000Z`,
  end_time: null,
  app_name: i % 2 ? "https" : "dns",
  server_name: null,
  src_addr: `10.0.0.${i}`,
  src_port: 1000 + i,
  dst_addr: "10.0.1.1",
  dst_port: i % 2 ? 443 : 53,
  client_chosen_by: "SYN",
  proto: i % 2 ? "tcp" : "udp",
  tx_bytes: i * 10,
  rx_bytes: 0,
  tx_packets: 1,
  rx_packets: 1,
  ep_id: null,
  app_service_id: null,
  node_id: null,
  performance: i === 3 ? "not good" : "good",
  mirror_session: null,
  encapsulation: null,
  vni: null,
  ...over,
});

const rows = Array.from({ length: 12 }, (_, i) => row(i + 1));

describe("querySessions", () => {
  it("pages, clamping to the last page", () => {
    expect(querySessions(rows, { size: 5, page: 2 }).items.map((s) => s.session_id)).toEqual(["6", "7", "8", "9", "10"]);
    const last = querySessions(rows, { size: 5, page: 99 });
    expect(last.page).toBe(3);
    expect(last.items.map((s) => s.session_id)).toEqual(["11", "12"]);
    expect(last.total).toBe(12);
  });

  it("searches every word and counts the matches", () => {
    const found = querySessions(rows, { q: "TCP https", size: 50 });
    expect(found.total).toBe(6);
    expect(found.items.every((s) => s.proto === "tcp")).toBe(true);
    expect(querySessions(rows, { q: "not good" }).items.map((s) => s.session_id)).toEqual(["3"]);
  });

  it("sorts numbers as numbers, both ways, blanks last", () => {
    expect(querySessions(rows, { sort: { id: "tx_bytes", desc: true }, size: 3 }).items.map((s) => s.tx_bytes)).toEqual([120, 110, 100]);
    const named = [row(1, { server_name: "b.example" }), row(2), row(3, { server_name: "a.example" })];
    expect(querySessions(named, { sort: { id: "server_name", desc: false } }).items.map((s) => s.session_id)).toEqual(["3", "1", "2"]);
    expect(querySessions(named, { sort: { id: "server_name", desc: true } }).items.map((s) => s.session_id)).toEqual(["1", "3", "2"]);
  });

  it("filters by VNI (mirrored traffic), and finds the mirror session by search", () => {
    const mirrored = [
      row(1, { mirror_session: "vxlan:100@192.0.2.1,192.0.2.2", encapsulation: "vxlan", vni: 100 }),
      row(2, { mirror_session: "geneve:200@198.51.100.1,198.51.100.2", encapsulation: "geneve", vni: 200 }),
      row(3, { mirror_session: "vxlan:100@192.0.2.1,192.0.2.2", encapsulation: "vxlan", vni: 100 }),
    ];
    expect(querySessions(mirrored, { vni: 100 }).items.map((s) => s.session_id)).toEqual(["1", "3"]);
    expect(querySessions(mirrored, { vni: 0 }).total).toBe(0);
    expect(querySessions(mirrored, { q: "geneve" }).items.map((s) => s.session_id)).toEqual(["2"]);
    // Plain traffic: no VNI, so a VNI filter keeps nothing; no filter keeps all.
    expect(querySessions(rows, { vni: 100 }).total).toBe(0);
    expect(querySessions(rows, {}).total).toBe(12);
  });

  it("without a size answers every matching session (the CSV export)", () => {
    expect(querySessions(rows, { q: "udp" }).items).toHaveLength(6);
  });
});
