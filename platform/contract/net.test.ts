import { describe, expect, it } from "vitest";
import { defaultVirtualPool, isAsn, isAwsEndpointServiceName, isAzureResourceId, isCidr, isFqdn, isFqdnOrIp, isIp, isPort } from "./net.ts";
import { virtualSubnetsFor } from "../domain/app-services.ts";

describe("address checks (spec 1 §5)", () => {
  it("IP addresses", () => {
    for (const ok of ["10.0.0.1", "255.255.255.255", "0.0.0.0", "2001:db8::1", "::1", "::", "fe80::1:2:3:4", "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8"]) expect(isIp(ok), ok).toBe(true);
    for (const bad of ["10.0.0.256", "10.0.0", "01.2.3.4x", "1:2:3:4:5:6:7:8:9", "1::2::3", "abc", "", " 10.0.0.1", "2001:db8:::1"]) expect(isIp(bad), bad).toBe(false);
  });
  it("CIDRs", () => {
    for (const ok of ["10.0.0.0/24", "0.0.0.0/0", "10.1.2.3/32", "2001:db8::/32"]) expect(isCidr(ok), ok).toBe(true);
    for (const bad of ["10.0.0.0/33", "10.0.0.0", "10.0.0.0/", "2001:db8::/129", "x/24", "10.0.0.0/24/1"]) expect(isCidr(bad), bad).toBe(false);
  });
  it("FQDNs", () => {
    for (const ok of ["app.example.com", "a-b.c.io", "wiki.corp.example."]) expect(isFqdn(ok), ok).toBe(true);
    for (const bad of ["localhost", "-a.example.com", "a..b", "a b.com", "10.0.0.1", `${"a".repeat(64)}.com`]) expect(isFqdn(bad), bad).toBe(false);
    expect(isFqdnOrIp("10.0.0.1")).toBe(true);
  });
  it("ports, ASNs, AWS and Azure names", () => {
    expect([0, 1, 65535, 65536, 1.5].map(isPort)).toEqual([false, true, true, false, false]);
    expect([0, 1, 4294967295, 4294967296].map(isAsn)).toEqual([false, true, true, false]);
    expect(isAwsEndpointServiceName("com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b2c3d4e5f60718")).toBe(true);
    expect(isAwsEndpointServiceName("com.amazonaws.vpce.eu-west-1.vpce-svc-xyz")).toBe(false);
    expect(isAzureResourceId("/subscriptions/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet")).toBe(true);
    expect(isAzureResourceId("/subscriptions/x/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet")).toBe(false);
  });
  it("the default virtual pool and the virtual subnets handed out from it", () => {
    expect(defaultVirtualPool("10.20.1.0/24")).toBe("10.20.0.0/16");
    expect(virtualSubnetsFor(["10.20.1.0/24", "10.20.2.0/25", "10.9.0.0/26"], ["100.64.0.0/16"])).toEqual(["100.64.0.0/24", "100.64.1.0/25", "100.64.1.128/26"]);
  });
});
