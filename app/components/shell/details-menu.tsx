import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useMenuBehavior } from "../row-menu.tsx";

/**
 * A `<details>`/`<summary>` menu: opens and closes with the keyboard (Enter/Space on the summary)
 * and the mouse without JavaScript. With JavaScript: Escape closes it and returns focus to the
 * summary, a click or focus outside closes it, and it closes after a navigation.
 */
export function DetailsMenu({
  summary,
  summaryClassName = "btn btn-ghost",
  className = "",
  children,
  testId,
}: {
  summary: ReactNode;
  summaryClassName?: string;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useMenuBehavior();

  // Closes after a navigation, not when the page hydrates: a menu opened in the moments before
  // hydration (a quick click after load) stayed open for the user but was shut by this effect's
  // first run.
  const at = `${location.pathname}${location.search}`;
  const shownAt = useRef(at);
  useEffect(() => {
    if (shownAt.current === at) return;
    shownAt.current = at;
    const details = ref.current;
    if (details?.open) details.open = false;
  }, [at]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (focusSummary: boolean) => {
      details.open = false;
      if (focusSummary) details.querySelector("summary")?.focus();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && details.open) {
        event.preventDefault();
        close(true);
      }
    };
    const onPointerDown = (event: Event) => {
      if (details.open && !details.contains(event.target as Node)) close(false);
    };
    const onFocusIn = (event: FocusEvent) => {
      if (details.open && !details.contains(event.target as Node)) close(false);
    };
    const onToggle = () => {
      if (details.open) {
        document.addEventListener("pointerdown", onPointerDown);
        document.addEventListener("focusin", onFocusIn);
        document.addEventListener("keydown", onKeyDown);
      } else {
        document.removeEventListener("pointerdown", onPointerDown);
        document.removeEventListener("focusin", onFocusIn);
        document.removeEventListener("keydown", onKeyDown);
      }
    };
    details.addEventListener("toggle", onToggle);
    if (details.open) onToggle();
    return () => {
      details.removeEventListener("toggle", onToggle);
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  return (
    // `name`: one group, so opening one menu closes the other, without JavaScript too.
    // `data-menu`: the row menus' keyboard behaviour (arrow keys, Home/End) applies here too.
    <details ref={ref} name="shell-menu" className={`dropdown dropdown-end ${className}`} data-testid={testId} data-menu="">
      <summary className={summaryClassName}>{summary}</summary>
      {children}
    </details>
  );
}
