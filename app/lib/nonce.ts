import { createContext, useContext } from "react";

/**
 * The page's CSP nonce (app/lib/csp.server.ts). On the server, app/entry.server.tsx provides it;
 * in the browser it is read from the page's own scripts (the `nonce` property: browsers hide the
 * attribute), so that hydration renders the same value the server did.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  const fromServer = useContext(NonceContext);
  if (fromServer !== undefined) return fromServer;
  if (typeof document === "undefined") return undefined;
  return (document.querySelector("script[nonce]") as HTMLScriptElement | null)?.nonce || undefined;
}
