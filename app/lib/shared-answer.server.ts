/*
 * Shared answers: a platform GET's answer parsed once and handed, frozen, to every request that
 * receives the same text (docs/decisions/2026-11-27-shared-answers.md). The platform answers a
 * list or a monitoring read from its read cache with the same text until something changes, so a
 * busy list screen parsed the same 30–70 KB of JSON on every view. With one object per text, what
 * a loader makes of it (a table's rows JSON, prepared charts) is remembered beside it in a
 * WeakMap (`derived`) and goes when the answer does.
 *
 * The objects are deep-frozen: several requests hold them at once, so a caller that tried to
 * change one would change every other request's answer; frozen, it fails loudly (TypeError in
 * strict mode) instead. Process-local and bounded in entries and characters, oldest out first:
 * a pure function's cache, nothing another instance needs.
 */
import { BoundedMemo } from "./bounded-memo.ts";

const MIN_CHARS = 2_048;
const MAX_CHARS = 16_000_000;

const answers = new BoundedMemo<string, unknown>({ maxEntries: 128, maxSize: MAX_CHARS, maxEntrySize: MAX_CHARS / 8, sizeOf: (text) => text.length });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The parsed answer of `text` (valid JSON), shared: the same frozen object for the same text. A
 * small answer is parsed each time (its lookup would cost what its parse does) but frozen all
 * the same, so that callers never depend on which it was.
 */
export function sharedAnswer(text: string): unknown {
  if (text.length < MIN_CHARS) return deepFreeze(JSON.parse(text));
  return answers.remember(text, () => deepFreeze(JSON.parse(text) as unknown));
}

// What a loader derives from a shared answer is remembered beside it with `derived`.
export { derived } from "./derived.ts";
