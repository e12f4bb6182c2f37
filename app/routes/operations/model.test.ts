import { describe, expect, it } from "vitest";
import { deliveryCountText, LOG_SIZE } from "./model.ts";

describe("deliveryCountText", () => {
  it("says what brings the first delivery while the log is empty", () => {
    expect(deliveryCountText(0, { webhook: false, canWrite: true })).toBe("No deliveries yet: save a webhook address above, and the events sent to it are listed here.");
    expect(deliveryCountText(0, { webhook: true, canWrite: true })).toBe("No deliveries yet: events are listed here as they are sent. 'Send test event' sends one now.");
    // A readonly user can do neither: no instruction.
    expect(deliveryCountText(0, { webhook: true, canWrite: false })).toBe("No deliveries yet.");
  });

  it("counts what is shown, in singular and plural, and says when it is only the newest", () => {
    const o = { webhook: true, canWrite: true };
    expect(deliveryCountText(1, o)).toBe("1 delivery.");
    expect(deliveryCountText(2, o)).toBe("All 2 deliveries.");
    expect(deliveryCountText(LOG_SIZE, o)).toBe(`All ${LOG_SIZE} deliveries.`);
    expect(deliveryCountText(LOG_SIZE + 1, o)).toBe(`The last ${LOG_SIZE} of ${LOG_SIZE + 1} deliveries.`);
  });
});
