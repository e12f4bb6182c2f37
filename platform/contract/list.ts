/*
 * The list contract shared by the platform and the console (plain TypeScript, no dependencies:
 * the console imports it in client code too). A list call given any of `q`, `sort`, `page`,
 * `size` answers one page as `ListPage`; without them it answers the spec's plain array.
 * docs/decisions/2026-11-23-lists-on-the-platform.md
 */

/** One page of a list, and how many rows the search and filters select over all pages. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

export const listLimits = {
  /** Largest `size` a list call answers. */
  maxSize: 100,
  /** Largest `page`. */
  maxPage: 1_000_000,
  /** Longest search text `q`. */
  maxQuery: 200,
  /** Most ids in an `ids` filter (the console checks which selected rows the result holds). */
  maxIds: 100,
} as const;

/** `?sort=name` ascending, `?sort=-name` descending: the values a list with these columns accepts. */
export function sortValues<const C extends string>(columns: readonly C[]): (C | `-${C}`)[] {
  return columns.flatMap((c) => [c, `-${c}` as const]);
}
