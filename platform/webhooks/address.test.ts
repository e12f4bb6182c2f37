import { describe, expect, it } from "vitest";
import { addressMessages, addressProblem, metadataAddressMessages } from "./address.ts";

// A resolver standing in for DNS answers (the rules judge addresses; the network is not the subject).
const answers = (...ips: string[]) => (async () => ips.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))) as unknown as typeof import("node:dns/promises").lookup;
const noDns = (async () => {
  throw Object.assign(new Error("getaddrinfo EAI_AGAIN"), { code: "EAI_AGAIN" });
}) as unknown as typeof import("node:dns/promises").lookup;

describe("where a webhook may go, and where SAML metadata may be read from", () => {
  it("accepts a name that does not resolve when saved (no public DNS here): the connection's check judges it later (issue 63 item 9)", async () => {
    expect(await addressProblem("https://hooks.example.com/linkwise", [], noDns)).toBeNull();
    expect(await addressProblem("https://idp.example.com/metadata", [], noDns, metadataAddressMessages)).toBeNull();
  });

  it("refuses a name that resolves to any private or reserved address, in the words of its use", async () => {
    expect(await addressProblem("https://hooks.example.com/x", [], answers("93.184.215.14", "10.1.2.3"))).toBe(addressMessages.reserved("10.1.2.3"));
    expect(await addressProblem("https://idp.example.com/x", [], answers("169.254.169.254"), metadataAddressMessages)).toBe(metadataAddressMessages.reserved("169.254.169.254"));
    expect(await addressProblem("https://idp.example.com/x", [], answers("93.184.215.14"), metadataAddressMessages)).toBeNull();
  });

  it("refuses literal reserved addresses, http and credentials without asking DNS", async () => {
    expect(await addressProblem("https://[fd00::1]/x", [], noDns)).toBe(addressMessages.reserved("fd00::1"));
    expect(await addressProblem("http://hooks.example.com/x", [], noDns)).toBe(addressMessages.scheme);
    expect(await addressProblem("https://a:b@hooks.example.com/x", [], noDns, metadataAddressMessages)).toBe(metadataAddressMessages.credentials);
    // The operator's own hosts (WEBHOOK_ALLOW_HOSTS) may use http and private addresses.
    expect(await addressProblem("http://127.0.0.1:9000/x", ["127.0.0.1"], noDns)).toBeNull();
  });
});
