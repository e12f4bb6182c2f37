import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { useForm } from "@conform-to/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { applyPatches, digest, header, PATCHES as patches, patchText } from "./patch-dependencies.mjs";
const ownGetters = (object: object) =>
  Object.entries(Object.getOwnPropertyDescriptors(object))
    .filter(([, d]) => d.get || d.set)
    .map(([k]) => k);

describe("the dependency patches (docs/decisions/2026-12-01-dependency-patches.md)", () => {
  it("are in the modules the console loads: React Router's static router has no own getters", async () => {
    const handler = createStaticHandler([{ id: "root", path: "/", loader: () => ({ rows: [1, 2, 3] }) }]);
    const context = await handler.query(new Request("http://localhost/"));
    if (context instanceof Response) throw new Error("a response");
    const router = createStaticRouter(handler.dataRoutes, context);
    expect(ownGetters(router)).toEqual([]);
    // What the getters answered, as plain properties.
    expect(router.state.loaderData).toEqual({ root: { rows: [1, 2, 3] } });
    expect(router.state.location.pathname).toBe("/");
    expect(router.routes.map((route) => route.id)).toEqual(["root"]);
    expect(router.basename).toBe("/");
    expect(router.future).toMatchObject({ v8_middleware: false });
    expect(() => router.navigate("/x")).toThrow(/stateless/);
  });

  it("are in the modules the console loads: Conform's, whose field metadata still reads the form's state", () => {
    // The metadata objects are made and dropped inside Conform's proxies, out of a test's reach:
    // the module that `import` loads must hold the current replacement (a checkout patched with an
    // older one keeps it until the package is installed again: this says so).
    const context = fileURLToPath(new URL("context.mjs", import.meta.resolve("@conform-to/react")));
    const loaded = fs.readFileSync(context, "utf8");
    expect(loaded).toContain(header(patches[1]!));
    expect(loaded, "reinstall it: rm -rf node_modules/@conform-to/react && npm install").toContain(fs.readFileSync("patches/conform-get-metadata.js", "utf8"));
    function Form() {
      const [form, fields] = useForm<{ email: string; tags: string[] }>({
        id: "f",
        defaultValue: { email: "a@example.com", tags: ["x", "y"] },
        lastResult: { status: "error", initialValue: { email: "bad", tags: ["x", "y"] }, error: { email: ["Enter a valid email address."], "tags[1]": ["Too short."] } },
      });
      const tags = fields.tags.getFieldList();
      return createElement(
        "form",
        { id: form.id },
        createElement("input", { id: fields.email.id, name: fields.email.name, defaultValue: fields.email.defaultValue, "aria-describedby": fields.email.errorId }),
        createElement("p", { id: fields.email.errorId }, fields.email.errors?.join(" ")),
        createElement("p", { id: "all" }, JSON.stringify(fields.tags.allErrors)),
        tags.map((tag) => createElement("input", { key: tag.key ?? tag.name, name: tag.name, defaultValue: tag.defaultValue })),
      );
    }
    const html = renderToString(createElement(Form));
    expect(html).toContain('id="f-email"');
    expect(html).toContain('name="email"');
    expect(html).toContain('value="bad"');
    expect(html).toContain("Enter a valid email address.");
    expect(html).toContain("&quot;tags[1]&quot;:[&quot;Too short.&quot;]");
    expect(html).toContain('name="tags[1]" value="y"');
  });

  it("replace only the text they were written for, once", () => {
    const patch = patches[0]!;
    const original = `before\n${patch.start}\n  return {\n    get basename() {\n      return context.basename;\n    },\n    get state() {\n      return {\n        a: 1\n      };\n    },\n    go() {}\n  };\n}\n${patch.end}\nafter\n`;
    const file = { path: "x.mjs", sha256: digest(original.slice(original.indexOf(patch.start), original.indexOf(patch.end))) };
    const patched = patchText(original, patch, file);
    expect(patched).toContain(`${header(patch)}// The static router's getters are plain properties`);
    expect(patched).toContain(`${patch.start}\n  return {\n    basename: context.basename,\n    state: {\n      a: 1\n    },\n    go() {}\n  };\n}\n${patch.end}\nafter\n`);
    expect(patchText(patched ?? "", patch, file)).toBeNull();
    expect(() => patchText(original.replace("a: 1", "a: 2"), patch, file)).toThrow(/not the one the patch was written for/);
    expect(() => patchText("nothing here", patch, file)).toThrow(/has no/);
  });

  it("stop the install on another version of a package, saying what to do", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-patches-"));
    try {
      const patch = patches[0]!;
      fs.mkdirSync(path.join(dir, patch.package), { recursive: true });
      fs.writeFileSync(path.join(dir, patch.package, "package.json"), JSON.stringify({ version: "99.0.0" }));
      expect(() => applyPatches({ nodeModules: dir, log: () => {} })).toThrow(/written for react-router 7\.18\.4, installed 99\.0\.0/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
