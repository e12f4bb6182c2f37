// Types of scripts/patch-dependencies.mjs, for its test.
export interface PatchedFile {
  /** The file's path inside the package. */
  path: string;
  /** digest() of the text the patch replaces in it. */
  sha256: string;
}
export interface Patch {
  name: string;
  /** Why, written above the replacement in the patched file. */
  why: string;
  package: string;
  version: string;
  files: PatchedFile[];
  start: string;
  end: string;
  replace: (text: string, file: PatchedFile) => string;
}
export declare const PATCHES: Patch[];
export declare function digest(text: string): string;
export declare function header(patch: Patch): string;
export declare function patchText(text: string, patch: Patch, file: PatchedFile): string | null;
export declare function applyPatches(options?: { nodeModules?: string; patches?: Patch[]; log?: (line: string) => void }): void;
