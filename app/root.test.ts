import { describe, expect, it } from "vitest";
import { config } from "zod";

// root.tsx sets zod's `jitless` through globalThis.__zod_globalConfig instead of importing zod
// (which would ship zod's core on every page). That holds only while zod keeps its settings there.
describe("zod's settings object", () => {
  it("is globalThis.__zod_globalConfig, so root.tsx can set jitless without importing zod", () => {
    const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
    expect(config()).toBe(scope.__zod_globalConfig);
    scope.__zod_globalConfig!.jitless = true;
    expect(config().jitless).toBe(true);
  });
});
