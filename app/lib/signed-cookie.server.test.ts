import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { createSignedCookie } from "./signed-cookie.server.ts";
import { csrf } from "./csrf.server.ts";

const secrets = ["s3cret", "older"];
const value = { username: "zoë@example.com", access_token: "tok+/=", nested: { n: 1, list: ["a", "ü€"] } };

describe("createSignedCookie", () => {
  it("reads what React Router's createCookie wrote, and React Router reads what it writes", async () => {
    const theirs = createCookie("__session", { secrets });
    const ours = createSignedCookie("__session", { secrets });
    const header = (setCookie: string) => setCookie.split(";")[0]!;
    expect(await ours.parse(header(await theirs.serialize(value)))).toEqual(value);
    expect(await theirs.parse(header(await ours.serialize(value)))).toEqual(value);
    // Byte for byte the same cookie.
    expect(header(await ours.serialize(value))).toBe(header(await theirs.serialize(value)));
  });

  it("accepts any listed secret (rotation) and refuses a tampered or unsigned value", async () => {
    const old = createSignedCookie("c", { secrets: ["older"] });
    const now = createSignedCookie("c", { secrets });
    const set = (await old.serialize({ a: 1 })).split(";")[0]!;
    expect(await now.parse(set)).toEqual({ a: 1 });
    const raw = decodeURIComponent(set.slice(2));
    const forged = Buffer.from(JSON.stringify({ a: 2 })).toString("base64") + raw.slice(raw.lastIndexOf("."));
    expect(await now.parse(`c=${encodeURIComponent(forged)}`)).toBeNull();
    expect(await now.parse(`c=${Buffer.from("{}").toString("base64")}`)).toBeNull();
    expect(await now.parse("other=1")).toBeNull();
    expect(await now.parse(null)).toBeNull();
  });

  it("serializes the cookie attributes", async () => {
    const c = createSignedCookie("x", { secrets, httpOnly: true, secure: true, sameSite: "lax", path: "/", maxAge: 60 });
    const set = await c.serialize("v");
    expect(set).toMatch(/^x=[^;]+; Max-Age=60; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(await c.serialize("", { maxAge: 0 })).toMatch(/^x=; Max-Age=0;/);
  });

});

describe("CSRF tokens", () => {
  it("are fresh, and validate against the cookie they are committed in", async () => {
    const [token, setCookie] = await csrf.commitToken(new Request("http://x/"));
    const [other] = await csrf.commitToken(new Request("http://x/"));
    expect(token).not.toBe(other);
    expect(setCookie).toBeTruthy();
    const headers = new Headers({ cookie: setCookie!.split(";")[0]! });
    const form = new FormData();
    form.set("csrf", token);
    await expect(csrf.validate(form, headers)).resolves.toBeUndefined();
    form.set("csrf", other);
    await expect(csrf.validate(form, headers)).rejects.toThrow();
  });
});

describe("the verified-value cache", () => {
  it("never lets a value signed with one cookie's secrets through another's", async () => {
    const a = createSignedCookie("c", { secrets: ["alpha"] });
    const b = createSignedCookie("c", { secrets: ["beta"] });
    const set = (await a.serialize({ who: "a" })).split(";")[0]!;
    expect(await a.parse(set)).toEqual({ who: "a" });
    expect(await a.parse(set)).toEqual({ who: "a" }); // now from the cache
    expect(await b.parse(set)).toBeNull();
  });
});
