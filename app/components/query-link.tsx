import { useEffect, type AnchorHTMLAttributes } from "react";
import { useNavigate, type NavigateFunction } from "react-router";

/*
 * Plain <a> links that the router follows through one click listener for the whole document
 * (useQueryLinkNavigation, installed once by the root). React Router's <Link> resolves its path,
 * reads four contexts, makes a click handler and allocates its matches on every render: the shell
 * alone has ~40 links (the navigation twice, the top bar, the profile menu, the breadcrumbs), and
 * a CPU and allocation profile of the signed-in 404 page put them at ~9 % of its CPU and ~20 % of
 * what it allocated (2026-11-30, docs/decisions/2026-11-30-plain-links.md). Without JavaScript
 * they are the same links.
 * - QueryLink: a link to this page with other query parameters (a tab, a chart's range, 'Show
 *   data'); the page keeps its scroll position.
 * - ScreenLink: a link to another screen. It carries `data-discover`, as <Link> does, so the
 *   router's route discovery (lazy mode: it reads `a[data-discover]` in the document) loads that
 *   screen's route before the click; a link to where the page already is replaces the history
 *   entry, as <Link> does.
 */
export function QueryLink({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a href={href} data-query-link="" {...rest} />;
}

export function ScreenLink({ to, preventScrollReset, ...rest }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string; preventScrollReset?: boolean }) {
  return <a href={to} data-screen-link={preventScrollReset ? "keep-scroll" : ""} data-discover="true" {...rest} />;
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
  const anchor = (event.target as Element | null)?.closest?.("a[data-query-link], a[data-screen-link]") as HTMLAnchorElement | null;
  if (!anchor || !routerCanFollow(anchor)) return;
  event.preventDefault();
  const to = routerPath(anchor);
  // As <Link preventScrollReset>: the page stays where it is (a fragment still scrolls to its target).
  if (anchor.hasAttribute("data-query-link")) return void navigate(to, { preventScrollReset: true });
  const here = window.location.pathname + window.location.search + window.location.hash;
  void navigate(to, { replace: to === here, preventScrollReset: anchor.dataset.screenLink === "keep-scroll" });
}

/** The one listener behind every QueryLink and ScreenLink (the root installs it). */
export function useQueryLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const listener = (event: MouseEvent) => onClick(navigate, event);
    document.addEventListener("click", listener);
    return () => document.removeEventListener("click", listener);
  }, [navigate]);
}
