import { parseWithZod } from "@conform-to/zod/v4";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { confirmPhraseError, confirmPhraseSchema } from "../components/confirm-phrase.tsx";
import { OpState } from "../components/op-state.tsx";
import { toggleSchema, toggleUnchangedError } from "../components/toggle-dialog.tsx";

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
  it("refuses the current value", () => {
    const on = parseWithZod(form({ enabled: "on" }), { schema: toggleSchema(true) });
    expect(on.status).toBe("error");
    expect(on.reply().error?.enabled).toEqual([toggleUnchangedError]);
    const off = parseWithZod(form({}), { schema: toggleSchema(false) });
    expect(off.status).toBe("error");
  });
  it("accepts a changed value as a boolean", () => {
    const on = parseWithZod(form({ enabled: "on", ep_id: "ep-1" }), { schema: toggleSchema(false, { ep_id: z.string() }) });
    expect(on.status === "success" && on.value).toEqual({ enabled: true, ep_id: "ep-1" });
    const off = parseWithZod(form({}), { schema: toggleSchema(true) });
    expect(off.status === "success" && off.value.enabled).toBe(false);
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
