import { configureCoercion } from "@conform-to/zod/v4/future";
import { z } from "zod";
import { emailMessages, limits, maxMessage } from "../../platform/lib/fields.ts";
import { splitList } from "../../platform/contract/net.ts";

/*
 * The console's form field builders (routes' schemas.server.ts), with the platform's wording
 * (platform/lib/fields.ts: 'Must be at most N characters.', its e-mail messages) so a form says
 * what the platform would. Conform sends an empty input as missing (undefined): `required` gives
 * that case the field's own message. Server-only: zod stays out of the browser.
 */

/** Optional text, trimmed, at most `max` characters (empty: undefined). */
export const optionalText = (max: number) => z.string().trim().max(max, maxMessage(max)).optional();

/**
 * Optional text the platform keeps as given: empty is '' (not missing), so a cleared field clears
 * the stored value and a create sends every field. Trimmed, at most `max` characters.
 */
export const clearableText = (max: number) => z.string().trim().max(max, maxMessage(max)).default("");

/** Required text, trimmed: `message` when missing or blank; at most `max` characters. */
export const requiredText = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, maxMessage(max));

/** An e-mail address, the platform's messages ('Email is required.', 'Enter a valid email address.'). */
export const emailInput = (max: number = limits.email) =>
  z.email({ error: (iss) => (iss.input === undefined ? emailMessages.required : emailMessages.invalid) }).max(max, maxMessage(max));

/** A hidden id field of a form: `message` when it is missing (a broken page, not the user's typing). */
export const hiddenId = (message: string) => z.string({ error: message });

/*
 * A form whose schema is its platform call's request schema (platform/contract/*.shapes.ts, issue 61
 * item 1): `requestForm(CreateIamUserBody)`, or `.pick`/`.extend` of it for form-only fields. Such
 * a form keeps an empty input as "" (what a JSON client sends for a field left blank) instead of
 * Conform's default `undefined`: the request schema's own words are for "" ('Please select an
 * entity.'), its 'Field required' for a field the request leaves out, which a rendered form never
 * does. Numbers and checkboxes ('on') are still coerced from the form's strings.
 */
const keepEmpty = configureCoercion({ stripEmptyString: (value) => value });
const requestForms = new WeakMap<z.ZodType, z.ZodType>();

/** What a request form reads a blank input of some fields as. */
export interface RequestFormOptions<K extends string> {
  /**
   * Fields whose blank input (empty or spaces) is null: a number the request takes as `null` for
   * none (Edit Site's coordinates, a VLAN id), which Conform would otherwise coerce from "" to NaN.
   */
  blankAsNull?: readonly K[];
}

/** The form's values with each of `fields` that is blank as null. */
function blanksAsNull(fields: readonly string[]) {
  return (values: unknown) => {
    if (typeof values !== "object" || values === null) return values;
    const out: Record<string, unknown> = { ...values };
    for (const f of fields) if (typeof out[f] === "string" && out[f].trim() === "") out[f] = null;
    return out;
  };
}

/** Marks `schema` as a request schema used as a form's (validateForm parses it keeping "", or null for `blankAsNull`'s fields). */
export function requestForm<S extends z.ZodType>(schema: S, options: RequestFormOptions<keyof z.input<S> & string> = {}): S {
  const coerced = keepEmpty.coerceFormValue(schema);
  requestForms.set(schema, options.blankAsNull?.length ? z.preprocess(blanksAsNull(options.blankAsNull), coerced) : coerced);
  return schema;
}

/** The schema validateForm parses a form with: a request form's keeps empty inputs as "" (requestForm), else null (Conform's default). */
export function requestFormParser<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, z.input<S>> | null {
  // why the cast: the map holds each schema's own coerced parser (requestForm), typed as its schema.
  return (requestForms.get(schema) as z.ZodType<z.output<S>, z.input<S>> | undefined) ?? null;
}

/**
 * A request field whose blank input means "not given" (a create form posts every field, the call
 * leaves an unused one out): '' becomes undefined before the field's own checks, so an optional
 * number, id or e-mail left blank is missing rather than refused. The constraint is the field's.
 */
export const blankAsMissing = <S extends z.ZodType>(field: S) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), field);

/** typedList's options. */
export interface TypedListOptions {
  /**
   * The words for a bad item, naming it, where the request's item messages do not (an e-mail's
   * 'Enter a valid email address.' says nothing of which one): `fieldMessages.emailNotValid`.
   */
  badItem?: (item: string) => string;
}

/**
 * A list the call takes as a JSON list, typed in one input separated by commas (or lines): each
 * item checked by the request's own `list` schema (its words, or `badItem`'s naming the item); at
 * most `max` characters typed. A transform, not `.pipe`: Conform would read the list's constraint
 * (`multiple`) from a pipe's end.
 */
export const typedList = <S extends z.ZodType<unknown[] | undefined>>(list: S, max: number, options: TypedListOptions = {}) =>
  z
    .string()
    .max(max, maxMessage(max))
    .transform((s, ctx): z.output<S> => {
      const items = splitList(s.replaceAll("\n", ","));
      const parsed = list.safeParse(items);
      if (parsed.success) return parsed.data;
      // An item's issue is at its index; the list's own (too many) has none.
      const itemAt = (issue: z.core.$ZodIssue) => (typeof issue.path[0] === "number" ? items[issue.path[0]] : undefined);
      const messages = parsed.error.issues.map((issue) => {
        const item = itemAt(issue);
        return options.badItem && item !== undefined ? options.badItem(item) : issue.message;
      });
      // Each message once: a bad address typed twice is named once; two bad ones are each named.
      for (const message of new Set(messages)) ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });
