import { describe, expect, it } from "vitest";

describe("followsChange: the view after a change or Refresh (it carries the redirect's flash cookie)", () => {
  it("is true with the flash cookie, whatever its place among the cookies", async () => {
    process.env.SESSION_SECRET ??= "unit-test-secret";
    const { flashToasts, followsChange } = await import("./toast.server.ts");
    const set = await flashToasts(new Request("http://console.test/routers", { method: "POST" }), [{ type: "success", message: "Saved." }]);
    const flash = set.split(";")[0]!;
    expect(followsChange(new Request("http://console.test/routers", { headers: { cookie: flash } }))).toBe(true);
    expect(followsChange(new Request("http://console.test/routers", { headers: { cookie: `__session=abc; ${flash}` } }))).toBe(true);
  });
  it("is false without it, and for a cookie whose name only ends like it", async () => {
    const { followsChange } = await import("./toast.server.ts");
    expect(followsChange(new Request("http://console.test/routers"))).toBe(false);
    expect(followsChange(new Request("http://console.test/routers", { headers: { cookie: "__session=abc; csrf=x" } }))).toBe(false);
    expect(followsChange(new Request("http://console.test/routers", { headers: { cookie: "my__toast=1" } }))).toBe(false);
  });
});
