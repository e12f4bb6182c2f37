import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateForm } from "./action.server.ts";
import { requestForm, typedList } from "./form-fields.server.ts";
import { fieldMessages } from "../../platform/contract/messages.ts";
import { CreateReportScheduleBody } from "../../platform/contract/report-schedules.shapes.ts";
import { ScheduleSchema } from "../routes/reports/schemas.server.ts";

/*
 * requestForm: a request schema used as a form's keeps a blank input as "" (the request's own
 * words are for ""), and its `blankAsNull` fields read a blank as null (a number the request takes
 * as null for none: Edit Site's coordinates), where Conform would coerce "" to NaN.
 */

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

const Body = z.object({
  name: z.string().min(1, "Name is required."),
  latitude: z.number({ error: "Latitude must be a number from -90 to 90." }).min(-90).max(90).nullable().optional(),
});

describe("requestForm", () => {
  it("keeps a blank text as '' for the request's own message", () => {
    const r = validateForm(form({ name: "", latitude: "1" }), requestForm(Body.extend({})));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.submission.error).toMatchObject({ name: ["Name is required."] });
  });

  it("reads a blank number as NaN without blankAsNull (the request refuses it)", () => {
    const r = validateForm(form({ name: "Edge", latitude: "" }), requestForm(Body.extend({})));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.submission.error).toMatchObject({ latitude: ["Latitude must be a number from -90 to 90."] });
  });

  it("reads a blank (or spaces) of a blankAsNull field as null", () => {
    const schema = requestForm(Body.extend({}), { blankAsNull: ["latitude"] });
    for (const blank of ["", "  "]) {
      const r = validateForm(form({ name: "Edge", latitude: blank }), schema);
      expect(r.ok && r.value).toEqual({ name: "Edge", latitude: null });
    }
  });

  it("still coerces and checks a typed number of a blankAsNull field", () => {
    const schema = requestForm(Body.extend({}), { blankAsNull: ["latitude"] });
    const good = validateForm(form({ name: "Edge", latitude: "50.11" }), schema);
    expect(good.ok && good.value).toEqual({ name: "Edge", latitude: 50.11 });
    const bad = validateForm(form({ name: "Edge", latitude: "north" }), schema);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.submission.error).toMatchObject({ latitude: ["Latitude must be a number from -90 to 90."] });
  });

  it("leaves the blank fields it is not given as '' ", () => {
    const schema = requestForm(Body.extend({}), { blankAsNull: ["latitude"] });
    const r = validateForm(form({ name: "", latitude: "" }), schema);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.submission.error).toMatchObject({ name: ["Name is required."] });
  });
});

/*
 * typedList: a list typed in one input (Service Reports' recipients, one a line), each item checked
 * by the request's list schema. The request's e-mail says 'Enter a valid email address.' of an item
 * without naming it; the form names each bad one, as the recipients' box always did ('Not a valid
 * e-mail address: x'), once per distinct bad item.
 */
describe("typedList", () => {
  const recipients = CreateReportScheduleBody.shape.recipients;
  const errors = (schema: z.ZodType, text: string) => schema.safeParse(text).error?.issues.map((i) => i.message) ?? [];

  it("names each bad item once, however often it is typed", () => {
    const list = typedList(recipients, 3000, { badItem: fieldMessages.emailNotValid });
    expect(errors(list, "ops@example.com\nnot-an-address\nalso bad@\nnot-an-address")).toEqual(["Not a valid e-mail address: not-an-address", "Not a valid e-mail address: also bad@"]);
    expect(list.parse("ops@example.com, noc@example.com")).toEqual(["ops@example.com", "noc@example.com"]);
  });

  it("keeps the list's own words (too many) and, without badItem, the item's words once", () => {
    const named = typedList(recipients, 3000, { badItem: fieldMessages.emailNotValid });
    const eleven = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`).join("\n");
    expect(errors(named, eleven)).toHaveLength(1);
    expect(errors(named, eleven)[0]).not.toMatch(/^Not a valid e-mail address/);
    expect(errors(typedList(recipients, 3000), "a\nb")).toEqual([fieldMessages.emailInvalid]);
  });

  it("Service Reports' recipients name the bad addresses", () => {
    const r = validateForm(form({ name: "Monthly", entity_name: "", cadence: "monthly", time_zone: "UTC", hour: "6", recipients: "ops@example.com\nops@\nnoc" }), ScheduleSchema);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.submission.error?.recipients).toEqual(["Not a valid e-mail address: ops@", "Not a valid e-mail address: noc"]);
  });
});
