import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CreateContactSchema } from "../routes/contacts/schemas.server.tsx";
import { formConstraints, type FormConstraint } from "./constraints.server.ts";

describe("formConstraints: a form's HTML constraints from its schema (issue 61 item 2)", () => {
  it("carries lengths, ranges and patterns, nested and in lists, beside required", () => {
    const { form } = formConstraints({
      form: z.object({
        name: z.string().trim().min(2).max(5),
        prefix: z.coerce.number().int().min(1).max(32),
        count: z.int(),
        code: z.string().regex(/^[A-Z]{3}$/).optional(),
        site: z.object({ city: z.string().max(40) }),
        tags: z.array(z.string().max(9)),
      }),
    });
    expect(form).toEqual({
      name: { required: true, minLength: 2, maxLength: 5 },
      prefix: { required: true, min: 1, max: 32 },
      count: { required: true },
      code: { required: false, pattern: "^(?=.*(?:^[A-Z]{3}$)).*$" },
      site: { required: true },
      "site.city": { required: true, maxLength: 40 },
      tags: { required: true, multiple: true },
      "tags[]": { required: true, maxLength: 9 },
    });
  });

  it("gives the Add Contact form the platform's limits (contactLimits)", () => {
    const { create } = formConstraints({ create: CreateContactSchema });
    expect(create.first_name).toEqual({ required: false, maxLength: 200 });
    expect(create.email).toMatchObject({ required: true, maxLength: 254 });
    expect(create.entity_name).toEqual({ required: true, minLength: 1, maxLength: 200 });
  });

  it("every screen's forms carry the length limits their schemas declare", async () => {
    // Each screen's schemas module exports `constraints` (formConstraints of its forms): before
    // this fix not one field of them had a maxLength.
    const modules = fs
      .globSync("app/routes/**/schemas.server.{ts,tsx}")
      .map((file) => path.resolve(file));
    let withMax = 0;
    for (const file of modules) {
      const mod = (await import(file)) as { constraints?: Record<string, FormConstraint> };
      for (const form of Object.values(mod.constraints ?? {})) {
        for (const field of Object.values(form)) if (typeof field.maxLength === "number") withMax += 1;
      }
    }
    expect(modules.length).toBeGreaterThan(5);
    expect(withMax).toBeGreaterThan(50);
  });
});
