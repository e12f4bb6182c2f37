import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { integer, makeCertificate } from "./certificates-make.ts";

describe("certificates-make", () => {
  it("writes INTEGERs minimally, as DER requires", () => {
    expect(integer(Buffer.from([0x00, 0x12]))).toEqual(Buffer.from([0x02, 0x01, 0x12]));
    expect(integer(Buffer.from([0x00, 0x00, 0x92]))).toEqual(Buffer.from([0x02, 0x02, 0x00, 0x92]));
    expect(integer(Buffer.from([0x92]))).toEqual(Buffer.from([0x02, 0x02, 0x00, 0x92]));
    expect(integer(Buffer.from([0x00]))).toEqual(Buffer.from([0x02, 0x01, 0x00]));
    expect(integer(Buffer.from([0x7f, 0x00]))).toEqual(Buffer.from([0x02, 0x02, 0x7f, 0x00]));
  });

  it("makes certificates OpenSSL reads whatever the serial's bytes (a random one starts with 0x00 once in 256)", () => {
    const now = Date.now();
    for (const first of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
      const serial = Buffer.from([first, 0x01, ...Buffer.alloc(14, 0x33)]);
      const made = makeCertificate({ cn: `c${first}`, notBefore: new Date(now - 1000), notAfter: new Date(now + 86_400_000), serial });
      expect(() => new X509Certificate(made.certificatePem), `first byte ${first}`).not.toThrow();
      expect(new X509Certificate(made.certificatePem).serialNumber.replace(/^0+/, "")).toBe(serial.toString("hex").toUpperCase().replace(/^0+/, ""));
    }
  });
});
