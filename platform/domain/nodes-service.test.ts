import { describe, expect, it } from "vitest";
import { certificateWarningDays, type NodeCertificate } from "../contract/nodes.ts";
import { certificateWarningsFreshUntil } from "./nodes-service.ts";

const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse("2026-11-28T00:00:00Z");
const expiring = (validTo: number): NodeCertificate => ({
  subject: "CN=a",
  issuer: "CN=b",
  serial_number: "01",
  valid_from: new Date(now - 100 * DAY).toISOString(),
  valid_to: new Date(validTo).toISOString(),
  fingerprint_sha256: "00",
  expires_within_30_days: validTo - now <= certificateWarningDays * DAY,
  imported_at: new Date(now - DAY).toISOString(),
});

describe("certificateWarningsFreshUntil", () => {
  it("is the first time a certificate's 30-day warning turns on", () => {
    const soon = now + (certificateWarningDays + 2) * DAY;
    const later = now + (certificateWarningDays + 9) * DAY;
    expect(certificateWarningsFreshUntil([expiring(later), null, expiring(soon)], now)).toBe(soon - certificateWarningDays * DAY);
  });

  it("leaves out warnings already on, and is Infinity without certificates", () => {
    expect(certificateWarningsFreshUntil([expiring(now + DAY), expiring(now + certificateWarningDays * DAY)], now)).toBe(Infinity);
    expect(certificateWarningsFreshUntil([null], now)).toBe(Infinity);
    expect(certificateWarningsFreshUntil([], now)).toBe(Infinity);
  });
});
