import { describe, expect, it } from "vitest";
import { DEFAULT_DDOS, deviceMessages } from "../../../platform/contract/devices.ts";
import { ToolQuery } from "../../../platform/contract/devices.shapes.ts";
import { validateForm } from "../../lib/action.server.ts";
import { AnnouncementSchema, DdosSchema, PingSchema, removeSchema } from "./schemas.server.ts";

const formData = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("AnnouncementSchema", () => {
  const at = (t: number) => ({ date: new Date(t).toISOString().slice(0, 10), hour: String(new Date(t).getUTCHours()) });
  const HOUR = 3_600_000;

  it("refuses a start before now on the date field, with the platform's words (issue 63 item 4)", () => {
    for (const t of [Date.UTC(2020, 0, 1), Math.floor(Date.now() / HOUR) * HOUR]) {
      const r = AnnouncementSchema.safeParse({ device_id: "cpe-abc", ...at(t), duration: "2" });
      expect(r.success).toBe(false);
      expect(r.error?.issues).toEqual([expect.objectContaining({ path: ["date"], message: deviceMessages.announcementPast })]);
    }
  });

  it("takes the next hour on", () => {
    const next = (Math.floor(Date.now() / HOUR) + 1) * HOUR;
    const r = AnnouncementSchema.safeParse({ device_id: "cpe-abc", ...at(next), duration: "2" });
    expect(r.data).toEqual({ device_id: "cpe-abc", start_time: new Date(next).toISOString().replace(".000Z", "Z"), duration: 2 });
  });
});

describe("AnnouncementSchema: the call's start time composed, checked with the request's fields (devices-forms)", () => {
  const errors = (fields: Record<string, string>) => {
    const r = validateForm(formData({ device_id: "cpe-1", ...fields }), AnnouncementSchema);
    return r.ok ? {} : (r.submission.error ?? {});
  };
  it("every field missing: the spec's sentence, and each field's beside it", () => {
    expect(errors({ date: "", hour: "", duration: "" })).toEqual({ "": [deviceMessages.fillAll], date: ["Choose a date."], hour: ["Choose a time."], duration: ["Enter a duration."] });
  });
  it("the duration and a start the database cannot hold: the request's words", () => {
    expect(errors({ date: "2030-01-01", hour: "2", duration: "0" })).toEqual({ duration: [deviceMessages.announcementDuration] });
    expect(errors({ date: "9999-12-31", hour: "23", duration: "2" })).toEqual({ date: [expect.stringMatching(/^Start time must be at the latest/)] });
  });
  it("sends the call's start_time (UTC, on the hour) and the duration as a number", () => {
    const r = validateForm(formData({ device_id: "cpe-1", date: "2030-01-01", hour: "2", duration: "3" }), AnnouncementSchema);
    expect(r.ok && r.value).toEqual({ device_id: "cpe-1", start_time: "2030-01-01T02:00:00Z", duration: 3 });
  });
});

describe("DdosSchema: messages in the dialog's words (issue 63 item 16)", () => {
  const form = (change: Partial<typeof DEFAULT_DDOS>) => ({ device_id: "cpe-abc", ...DEFAULT_DDOS, ...change });

  it("alert ≤ block ≤ max, named as the fields are labelled: 'TCP SYN flood: Alert must be at most Block.'", () => {
    const r = DdosSchema.safeParse(form({ tcp_syn_flood_thresholds: { alert_threshold: 3000, block_threshold: 2000, max_threshold: 1000 } }));
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["tcp_syn_flood_thresholds.alert_threshold", "TCP SYN flood: Alert must be at most Block."],
      ["tcp_syn_flood_thresholds.block_threshold", "TCP SYN flood: Block must be at most Max."],
    ]);
  });

  it("a threshold that is no whole number in range: 'ICMP flood: Max must be …'", () => {
    const r = DdosSchema.safeParse(form({ icmp_thresholds: { alert_threshold: 100, block_threshold: 3000, max_threshold: 1.5 } }));
    expect(r.error?.issues.map((i) => i.message)).toContain("ICMP flood: Max must be a whole number from 0 to 10000000.");
    for (const i of r.error?.issues ?? []) expect(i.message).not.toMatch(/_threshold/);
  });
});

describe("Ping and Traceroute: run_ping's query (devices-forms)", () => {
  const errors = (fields: Record<string, string>) => {
    const r = validateForm(formData(fields), PingSchema);
    return r.ok ? {} : (r.submission.error ?? {});
  };
  it("a blank or wrong address says the dialog's sentence, the platform's too", () => {
    expect(errors({ device_id: "cpe-1", ip_address: "" })).toEqual({ ip_address: [deviceMessages.enterIp] });
    expect(errors({ device_id: "cpe-1", ip_address: "999.1.1.1" })).toEqual({ ip_address: [deviceMessages.enterIp] });
    expect(ToolQuery.safeParse({ node_id: "cpe-1", ip_address: "999.1.1.1" }).error?.issues.map((i) => i.message)).toEqual([deviceMessages.enterIp]);
  });
  it("takes an address, the tool the button pressed (ping by default)", () => {
    const r = validateForm(formData({ device_id: "cpe-1", ip_address: " 8.8.8.8 " }), PingSchema);
    expect(r.ok && r.value).toEqual({ device_id: "cpe-1", ip_address: "8.8.8.8", tool: "ping" });
  });
});

describe("Delete: remove_cpe's request and the typed id (devices-forms)", () => {
  it("takes the device's id typed, refuses anything else", () => {
    const schema = removeSchema("cpe-1");
    expect(validateForm(formData({ device_id: "cpe-1", confirm: "cpe-1" }), schema).ok).toBe(true);
    const r = validateForm(formData({ device_id: "cpe-1", confirm: "cpe-2" }), schema);
    expect(r.ok ? {} : Object.keys(r.submission.error ?? {})).toEqual(["confirm"]);
  });
});
