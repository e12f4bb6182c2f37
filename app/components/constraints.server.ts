import { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";

/*
 * A form's HTML constraints (required, maxLength, pattern, min, max…), derived from its zod schema
 * on the server, so they are never copied by hand and zod is not shipped to the browser: the
 * loader returns them and the component passes them to the kit's `useForm({ constraint })`.
 *
 *   // loader
 *   return { constraints: formConstraints({ create: CreateSchema, update: UpdateSchema }) };
 *   // component
 *   const [form, fields] = useForm({ id: "create", lastResult, constraint: loaderData.constraints.create });
 */
/** Conform's Constraint shape (not re-exported by @conform-to/react). */
export interface Constraint {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  multiple?: boolean;
  pattern?: string;
}
export type FormConstraint = Record<string, Constraint>;

export function formConstraints<K extends string>(schemas: Record<K, z.ZodType>): Record<K, FormConstraint> {
  const out = {} as Record<K, FormConstraint>;
  for (const key of Object.keys(schemas) as K[]) {
    // JSON-safe: a RegExp-free plain object (getZodConstraint gives patterns as strings).
    out[key] = JSON.parse(JSON.stringify(getZodConstraint(schemas[key]))) as FormConstraint;
  }
  return out;
}

/**
 * The open dialog's constraints only (`{ [dialog]: … }`, or none): what a list screen's loader
 * returns, since useConstraint reads them by the dialog's name and every other form's would cost
 * the page's data (turbo-stream) some values each on every view of the list.
 */
export function openDialogConstraints(all: Readonly<Record<string, FormConstraint>>, dialog: string | null): Record<string, FormConstraint> {
  const open = dialog !== null && Object.hasOwn(all, dialog) ? all[dialog] : undefined;
  return open && dialog !== null ? { [dialog]: open } : {};
}
