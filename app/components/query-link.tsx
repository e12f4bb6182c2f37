import { useEffect, type AnchorHTMLAttributes } from "react";
import { useNavigate, type NavigateFunction } from "react-router";

/*
 * A link to this page with other query parameters (a tab, a chart's range, 'Show data'): a plain
 * <a>, navigated by the router through one click listener for the whole document
 * (useQueryLinkNavigation, installed once by the root). React Router's <Link> resolves its path,
 * reads four contexts and makes a click handler on every render: a page with a dozen of them paid
 * ~10 µs each on the server for nothing a same-page link needs (npm run bench, /routers). Without
 * JavaScript it is the same link. Links to other screens stay <Link> (the router discovers their
 * routes from them).
 */
export function QueryLink({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a href={href} data-query-link="" {...rest} />;
}

type Click = Pick<MouseEvent, "defaultPrevented" | "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey">;

/** A plain left click (no modifier key, not handled yet): one the router may take over. */
export const plainClick = (event: Click) => !(event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);

/** A link the router can follow in this document (same origin, no target, not a download). */
export const routerCanFollow = (anchor: HTMLAnchorElement) => !anchor.target && !anchor.hasAttribute("download") && anchor.origin === window.location.origin;

/** What to hand the router's navigate for a link: its path, query and fragment. */
export const routerPath = (anchor: HTMLAnchorElement) => anchor.pathname + anchor.search + anchor.hash;

function onClick(navigate: NavigateFunction, event: MouseEvent) {
  if (!plainClick(event)) return;
  const anchor = (event.target as Element | null)?.closest?.("a[data-query-link]") as HTMLAnchorElement | null;
  if (!anchor || !routerCanFollow(anchor)) return;
  event.preventDefault();
  // As <Link preventScrollReset>: the page stays where it is (a fragment still scrolls to its target).
  void navigate(routerPath(anchor), { preventScrollReset: true });
}

/** The one listener behind every QueryLink (the root installs it). */
export function useQueryLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const listener = (event: MouseEvent) => onClick(navigate, event);
    document.addEventListener("click", listener);
    return () => document.removeEventListener("click", listener);
  }, [navigate]);
}
