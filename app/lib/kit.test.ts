import { parseWithZod } from "@conform-to/zod/v4";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { confirmPhraseError, confirmPhraseSchema } from "../components/confirm-phrase.tsx";
import { OpState } from "../components/op-state.tsx";
import { toggleUnchangedError } from "../components/toggle-dialog.tsx";
import { toggleSchema } from "../components/toggle.server.ts";
import { formConstraints } from "../components/constraints.server.ts";
import { validateForm } from "./action.server.ts";
import { bool } from "../../platform/lib/fields.ts";

// The server-side halves of the kit's components: the schemas the actions use, and pure renders.

function form(entries: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(entries)) fd.append(k, v);
  return fd;
}

describe("confirmPhraseSchema", () => {
  const schema = confirmPhraseSchema("confirm", { contact_id: z.string() });
  it("accepts the exact phrase (surrounding spaces ignored)", () => {
    const s = parseWithZod(form({ contact_id: "con-1", confirm: "  confirm " }), { schema });
    expect(s.status).toBe("success");
    if (s.status === "success") expect(s.value).toEqual({ contact_id: "con-1", confirm: "confirm" });
  });
  it("refuses another word, another case, or nothing, with a clear error beside the field", () => {
    for (const confirm of ["delete", "Confirm", ""]) {
      const s = parseWithZod(form({ contact_id: "con-1", confirm }), { schema });
      expect(s.status).toBe("error");
      expect(s.reply().error?.confirm).toEqual([confirmPhraseError("confirm")]);
    }
  });
});

describe("toggleSchema", () => {
  // A request's switch (the platform's boolean field) beside its id, as the toggle calls take them.
  const request = { ep_id: z.string(), enabled: bool() };
  it("refuses the current value", () => {
    const on = validateForm(form({ ep_id: "ep-1", enabled: "on" }), toggleSchema(true, "enabled", request));
    expect(on.ok).toBe(false);
    expect(on.submission.reply().error?.enabled).toEqual([toggleUnchangedError]);
    const off = validateForm(form({ ep_id: "ep-1" }), toggleSchema(false, "enabled", request));
    expect(off.submission.reply().error?.enabled).toEqual([toggleUnchangedError]);
  });
  it("accepts a changed value as the request's boolean (a missing box is off)", () => {
    const on = validateForm(form({ enabled: "on", ep_id: "ep-1" }), toggleSchema(false, "enabled", request));
    expect(on.ok && on.value).toEqual({ enabled: true, ep_id: "ep-1" });
    const off = validateForm(form({ ep_id: "ep-1" }), toggleSchema(true, "enabled", request));
    expect(off.ok && off.value).toEqual({ enabled: false, ep_id: "ep-1" });
    // Another name for the switch (Settings' mfa_enabled).
    const mfa = validateForm(form({ mfa_enabled: "on" }), toggleSchema(false, "mfa_enabled", { mfa_enabled: bool() }));
    expect(mfa.ok && mfa.value).toEqual({ mfa_enabled: true });
  });
  it("says the request's words for a value that is no checkbox's", () => {
    const odd = validateForm(form({ ep_id: "ep-1", enabled: "yes" }), toggleSchema(true, "enabled", request));
    expect(odd.submission.reply().error?.enabled).toEqual(["Input should be a valid boolean"]);
  });
  it("gives Conform the switch as not required (a box turned off posts nothing), the request's fields their constraints", () => {
    const { toggle } = formConstraints({ toggle: toggleSchema(false, "enabled", { ep_id: z.string().max(40), enabled: bool() }) });
    expect(toggle).toEqual({ ep_id: { required: true, maxLength: 40 }, enabled: { required: false } });
  });
});

describe("OpState", () => {
  it("up is a green dot, anything else red, missing is N/A; always with text", () => {
    const up = renderToStaticMarkup(createElement(OpState, { value: "up" }));
    expect(up).toContain("bg-success");
    expect(up).toContain("Op state: </span>up");
    const down = renderToStaticMarkup(createElement(OpState, { value: "degraded", label: "Operational state" }));
    expect(down).toContain("bg-error");
    expect(down).toContain("Operational state: </span>degraded");
    for (const v of [null, undefined, ""]) {
      const na = renderToStaticMarkup(createElement(OpState, { value: v }));
      expect(na).toContain("N/A");
      expect(na).not.toContain("rounded-full");
    }
  });
});
