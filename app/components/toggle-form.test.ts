import { describe, expect, it } from "vitest";
import { toggleConfirmDisabled, toggleUnchangedError } from "./toggle-form.tsx";

// Issue 63 item 20: one rule for every toggle's Confirm (specs 2 and 3 disagreed after an error).
describe("toggleConfirmDisabled", () => {
  const reply = (messages: Record<string, string[]>) => ({ status: "error" as const, error: messages });

  it("is never disabled without JavaScript", () => {
    expect(toggleConfirmDisabled(false, true, null)).toBe(false);
    expect(toggleConfirmDisabled(false, true, reply({ enabled: [toggleUnchangedError] }))).toBe(false);
  });

  it("is disabled while the switch equals the current value, enabled once it differs", () => {
    expect(toggleConfirmDisabled(true, true, null)).toBe(true);
    expect(toggleConfirmDisabled(true, false, null)).toBe(false);
  });

  it("after 'The value is unchanged' stays disabled until the switch differs again", () => {
    const unchanged = reply({ enabled: [toggleUnchangedError] });
    expect(toggleConfirmDisabled(true, true, unchanged)).toBe(true);
    expect(toggleConfirmDisabled(true, false, unchanged)).toBe(false);
  });

  it("after any other error stays enabled for a retry", () => {
    expect(toggleConfirmDisabled(true, true, reply({ "": ["The platform is unavailable."] }))).toBe(false);
    expect(toggleConfirmDisabled(true, true, reply({ address: ["Enter a valid IPv4 address."], enabled: [toggleUnchangedError] }))).toBe(false);
  });
});
