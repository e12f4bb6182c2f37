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

function onClick(navigate: NavigateFunction, event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.("a[data-query-link]") as HTMLAnchorElement | null;
  if (!anchor || anchor.target || anchor.hasAttribute("download") || anchor.origin !== window.location.origin) return;
  event.preventDefault();
  // As <Link preventScrollReset>: the page stays where it is (a fragment still scrolls to its target).
  void navigate(anchor.pathname + anchor.search + anchor.hash, { preventScrollReset: true });
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
