import { describe, expect, it } from "vitest";
import { deviceMessages } from "../../../platform/contract/devices.ts";
import { AnnouncementSchema } from "./schemas.server.ts";

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
