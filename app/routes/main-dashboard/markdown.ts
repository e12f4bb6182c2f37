import { micromark } from "micromark";
import { gfmTable, gfmTableHtml } from "micromark-extension-gfm-table";

/*
 * The post-mortem's markdown as HTML: micromark (CommonMark, with GFM tables), which is safe by
 * default — raw HTML in the text is escaped and dangerous link protocols are dropped — so the
 * result can be written into the page as it is. Headings move down `shift` levels to sit under
 * the page's or the dialog's own heading. Loaded lazily by the dialog; the no-JS page runs it on
 * the server.
 */
export function markdownHtml(markdown: string, shift: number): string {
  const shifted = shift > 0 ? markdown.replace(/^(#{1,6}) /gm, (_, hashes: string) => `${"#".repeat(Math.min(6, hashes.length + shift))} `) : markdown;
  return micromark(shifted, {
    extensions: [gfmTable()],
    htmlExtensions: [gfmTableHtml()],
  });
}
