// The line break opportunities of the Unicode Line Breaking Algorithm (UAX #14), as pdfkit itself
// uses them: the package ships no types. Positions are string (UTF-16) indices.
declare module "linebreak" {
  export default class LineBreaker {
    constructor(text: string);
    /** The next place a line may (or, after a newline, must) end; null at the end of the text. */
    nextBreak(): { position: number; required: boolean } | null;
  }
}
