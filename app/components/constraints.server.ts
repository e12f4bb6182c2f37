import { serializeHtmlPattern } from "@conform-to/dom/future";
import { getZodConstraint } from "@conform-to/zod/v4";
import { z } from "zod";

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
    const constraint = JSON.parse(JSON.stringify(getZodConstraint(schemas[key]))) as FormConstraint;
    addLimits(constraint, z.toJSONSchema(schemas[key], { io: "input", unrepresentable: "any" }) as JsonSchemaNode, "");
    out[key] = constraint;
  }
  return out;
}

/** The part of a JSON Schema (draft 2020-12, as zod writes it) that carries a form field's limits. */
interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

/**
 * The length, range and pattern limits of each field, read from the schema's JSON Schema (zod's
 * public `toJSONSchema`) into Conform's keys (`a.b`, `list[]`). Conform 1.21's getZodConstraint
 * reads them from zod internals that zod 4.6 no longer fills (`_zod.bag`), so since that upgrade
 * no form carried maxlength, minlength, min or max (issue 61); this way does not depend on them.
 * HTML counts maxlength in UTF-16 units, zod in code points: the browser is at most stricter (emoji).
 */
function addLimits(out: FormConstraint, node: JsonSchemaNode, name: string): void {
  if (node.properties) {
    for (const [key, child] of Object.entries(node.properties)) addLimits(out, child, name ? `${name}.${key}` : key);
    return;
  }
  // A nullable field (`.nullish()`: a JSON client may send null): its string's limits. A union of
  // strings ('' or a phone number): the longest any branch takes, the shortest, no one's pattern.
  const branches = node.anyOf?.filter((b) => b.type !== "null");
  if (branches?.length === 1) {
    addLimits(out, branches[0]!, name);
    return;
  }
  if (branches && branches.length > 1 && branches.every((b) => b.type === "string" && b.maxLength !== undefined)) {
    addLimits(out, { maxLength: Math.max(...branches.map((b) => b.maxLength!)), minLength: Math.min(...branches.map((b) => b.minLength ?? 0)) || undefined }, name);
    return;
  }
  if (node.items) {
    addLimits(out, node.items, `${name}[]`);
    return;
  }
  const field = name ? out[name] : undefined;
  if (!field) return;
  field.minLength ??= node.minLength;
  field.maxLength ??= node.maxLength;
  if (node.pattern !== undefined && field.pattern === undefined) field.pattern = serializeHtmlPattern([new RegExp(node.pattern)]);
  // z.int()'s implicit safe-integer bounds are no limit a person types against.
  if (node.minimum !== undefined && node.minimum > Number.MIN_SAFE_INTEGER) field.min ??= node.minimum;
  if (node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER) field.max ??= node.maximum;
  for (const k of ["minLength", "maxLength", "pattern", "min", "max"] as const) if (field[k] === undefined) delete field[k];
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
