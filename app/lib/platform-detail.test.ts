import { describe, expect, it } from "vitest";
import { detailMessages, detailOf, detailText, parseBody, splitDetail } from "./platform-detail.ts";

// The platform's error detail, read in one place for the whole console (issue 9).
describe("platform-detail", () => {
  it("parses an answer body and finds its detail", () => {
    expect(parseBody("")).toBeNull();
    expect(parseBody('{"detail":"No"}')).toEqual({ detail: "No" });
    expect(parseBody("Bad Gateway")).toBe("Bad Gateway");
    expect(detailOf({ detail: "No" })).toBe("No");
    expect(detailOf("plain")).toBe("plain");
  });

  it("turns string and list details into messages, field errors and form errors", () => {
    const list = [
      { loc: ["body", "email"], msg: "Invalid email", type: "value_error" },
      { loc: ["body", "other"], msg: "Something else" },
      "bare",
    ];
    expect(detailText("Nope")).toBe("Nope");
    expect(detailText(null, "fallback")).toBe("fallback");
    expect(detailText(list)).toBe("Invalid email Something else bare");
    expect(detailMessages(list)).toEqual(["Invalid email", "Something else", "bare"]);
    expect(detailMessages("One")).toEqual(["One"]);
    expect(splitDetail(list, ["email"])).toEqual({ fieldErrors: { email: ["Invalid email"] }, formErrors: ["Something else", "bare"] });
    expect(splitDetail("Whole form", ["email"])).toEqual({ fieldErrors: {}, formErrors: ["Whole form"] });
  });
});
