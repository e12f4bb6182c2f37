import type { ReactNode } from "react";
import { copyText } from "./clipboard.ts";
import { useHydrated } from "./hooks.ts";
import { showToast } from "./toaster.tsx";
import { COPIED } from "../lib/messages.ts";

/*
 * Copy to the clipboard with the one pair of toasts ('Copied to clipboard!' / 'Could not copy text
 * to clipboard'). The clipboard needs JavaScript, so the button appears only once it runs; the text
 * beside it stays selectable without.
 *
 *   <CopyButton text={secret} />                                  // "Copy"
 *   <CopyButton text={token}>Copy<span className="sr-only"> the registration token</span></CopyButton>
 */

/** Copies `text` and says how it went in a toast. */
export async function copyWithToast(text: string): Promise<void> {
  try {
    await copyText(text);
    showToast({ type: "success", message: COPIED });
  } catch {
    showToast({ type: "error", message: "Could not copy text to clipboard" });
  }
}

export function CopyButton({ text, children = "Copy", className = "btn btn-sm" }: { text: string; children?: ReactNode; className?: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button type="button" className={className} onClick={() => void copyWithToast(text)}>
      {children}
    </button>
  );
}
