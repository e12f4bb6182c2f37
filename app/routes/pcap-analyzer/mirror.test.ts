import { describe, expect, it } from "vitest";
import {
  decodeAsFromFields,
  decodeAsFromUrl,
  decodeAsMessages,
  vniFromUrl,
} from "./mirror.tsx";

describe("the upload's decode-as fields", () => {
  it("make a rule from a port and an encapsulation, or nothing from neither", () => {
    expect(decodeAsFromFields("8472", "vxlan")).toEqual({
      ok: true,
      rule: "udp.port==8472,vxlan",
    });
    expect(decodeAsFromFields(" 7081 ", "geneve")).toEqual({
      ok: true,
      rule: "udp.port==7081,geneve",
    });
    expect(decodeAsFromFields("", "")).toEqual({ ok: true, rule: null });
    expect(decodeAsFromFields(null, undefined)).toEqual({
      ok: true,
      rule: null,
    });
  });

  it("refuse one without the other, a port out of range and an unknown encapsulation", () => {
    expect(decodeAsFromFields("8472", "")).toEqual({
      ok: false,
      message: decodeAsMessages.encapsulation,
    });
    expect(decodeAsFromFields("", "vxlan")).toEqual({
      ok: false,
      message: decodeAsMessages.portMissing,
    });
    for (const port of ["0", "65536", "-1", "80.5", "abc"])
      expect(decodeAsFromFields(port, "vxlan")).toEqual({
        ok: false,
        message: decodeAsMessages.port,
      });
    expect(decodeAsFromFields("8472", "gre")).toEqual({
      ok: false,
      message: decodeAsMessages.encapsulation,
    });
  });
});

describe("the page URL's vni and decode_as", () => {
  it("keep only valid values", () => {
    expect(vniFromUrl("100")).toBe(100);
    expect(vniFromUrl("0")).toBe(0);
    expect(vniFromUrl("16777215")).toBe(16777215);
    for (const v of [null, "", "16777216", "-1", "1e3", "x"])
      expect(vniFromUrl(v)).toBeNull();
    expect(decodeAsFromUrl("udp.port==8472,vxlan")).toBe(
      "udp.port==8472,vxlan",
    );
    for (const v of [
      null,
      "udp.port==0,vxlan",
      "udp.port==8472,gre",
      "tcp.port==1,vxlan",
    ])
      expect(decodeAsFromUrl(v)).toBeNull();
  });
});
