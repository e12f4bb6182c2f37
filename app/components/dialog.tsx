import { createContext, useContext, useEffect, useId, useLayoutEffect, useRef, type ComponentType, type ReactNode } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { closeDialogHref } from "../lib/url.ts";
import { listen, useHydrated } from "./hooks.ts";

/*
 * A dialog opened by URL: `?dialog=edit&id=con-1`. The server renders it open (<dialog open>), so
 * it works without JavaScript, with a Cancel link back to the URL without `dialog`/`id`. With
 * JavaScript it becomes a real modal (showModal: the page behind is inert, focus is trapped,
 * Escape and a click on the backdrop navigate to the URL without the dialog, focus returns to
 * what opened it).
 *
 * Without JavaScript the open dialog is where the keyboard starts: its box has `autofocus`, the
 * shell renders its top bar and navigation `inert` while the URL names a dialog (ShellFrame), and
 * the page content behind it is inert by CSS (`interactivity: inert`, app.css) — so the first Tab
 * lands in the dialog, not ~70 links further behind the backdrop.
 *
 *   <UrlDialog name="edit" title="Update Contact">
 *     <ConformForm …>…<DialogActions><SubmitButton>Update</SubmitButton></DialogActions></ConformForm>
 *   </UrlDialog>
 */

/** A dialog holding one form (ToggleDialog, ConfirmPhraseDialog): what opens it, its form's intent and reply. */
export interface FormDialogProps {
  /** The `dialog=` value that opens it. */
  name: string;
  title: string;
  /** The form's `intent`. */
  intent: string;
  /** Hidden fields (ids). */
  fields?: Record<string, string>;
  /** The action's reply for this form (`actionData?.result`). */
  lastResult?: SubmissionResult<string[]> | null;
  /** Shown above the form's field. */
  children?: ReactNode;
}

/** A form that stands on a page or in a dialog (ToggleForm, ConfirmPhraseForm): its own props, an id, where it is. */
export type DialogFormProps<P extends FormDialogProps> = Omit<P, "name" | "title"> & { id: string; inDialog?: boolean };

/**
 * The URL-opened dialog of such a form: `?dialog={name}` opens it, titled `title`, the form's id
 * `{name}-form`, its buttons in the dialog's row (FormActions).
 *
 *   export const ToggleDialog = formDialog<ToggleDialogProps>(ToggleForm);
 */
export function formDialog<P extends FormDialogProps>(Form: ComponentType<DialogFormProps<P>>) {
  return function FormDialog({ name, title, ...form }: P) {
    return (
      <UrlDialog name={name} title={title}>
        <Form {...form} id={`${name}-form`} inDialog />
      </UrlDialog>
    );
  };
}

const DialogContext = createContext<{ closeHref: string; titleId: string } | null>(null);

export interface UrlDialogProps {
  /** The `dialog=` value that opens it. */
  name: string;
  title: string;
  children: ReactNode;
  /** Where Cancel/Escape go; default: this URL without `dialog` and `id`. */
  closeHref?: string;
  /** Wider box for big forms. */
  size?: "md" | "lg";
  /** Render even if `dialog=` does not match (the route decided already). */
  open?: boolean;
}

export function UrlDialog({ name, title, children, closeHref, size = "md", open }: UrlDialogProps) {
  const [params] = useSearchParams();
  const isOpen = open ?? params.get("dialog") === name;
  if (!isOpen) return null;
  return (
    <OpenDialog name={name} title={title} closeHref={closeHref} size={size}>
      {children}
    </OpenDialog>
  );
}

/** A field that can take the focus. */
const DIALOG_FIELD = "input:not([type='hidden']):not([disabled]), select:not([disabled]), textarea:not([disabled])";

/**
 * Where the focus goes in a dialog whose focused control is gone or that just opened: the first
 * field with an error, else the first field, else the answer that replaced the form
 * (`data-dialog-focus`: a token shown once, a speed test running), else the dialog's box. Never
 * <body> (issue 63 item 18).
 */
function dialogFocusTarget(dialog: HTMLDialogElement, fallbackToBox: boolean): HTMLElement | null {
  return (
    dialog.querySelector<HTMLElement>("[aria-invalid='true']") ??
    dialog.querySelector<HTMLElement>(`[autofocus]:not([tabindex='-1']), ${DIALOG_FIELD}`) ??
    dialog.querySelector<HTMLElement>("[data-dialog-focus]") ??
    (fallbackToBox ? dialog.querySelector<HTMLElement>(".kit-dialog-box") : null)
  );
}

/** Whether an element can take the focus where it is (connected, rendered, not inert). */
function canFocus(el: Element | null): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && el.checkVisibility() && !el.closest("[inert]");
}

/**
 * After a dialog closed (Escape, Close, Cancel, a save), when the focus went nowhere: what opened
 * it, if it is still there; else the control on the page that opens this dialog (the row menu of
 * the row it was about: a dialog opened by URL was opened by nothing on this page); else the main
 * region. Never <body> (issue 63 item 18).
 */
function restoreFocusAfterDialog(opener: Element | null, name: string, id: string | null) {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const menuOf = (el: Element) => {
    // An item in a closed menu (<details>): the menu's button.
    const details = el.closest("details");
    return details && !details.open ? details.querySelector(":scope > summary") : el;
  };
  if (opener?.isConnected) {
    const target = menuOf(opener);
    if (canFocus(target)) return target.focus();
  }
  for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>("a[href*='dialog=']"))) {
    const params = new URL(link.href, window.location.href).searchParams;
    if (params.get("dialog") !== name || (id !== null && params.get("id") !== id)) continue;
    const target = menuOf(link);
    if (canFocus(target)) return target.focus();
  }
  document.getElementById("main")?.focus({ preventScroll: true });
}

function OpenDialog({ name, title, children, closeHref, size }: { name: string; title: string; children: ReactNode; closeHref?: string; size: "md" | "lg" }) {
  const location = useLocation();
  const navigate = useNavigate();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hydrated = useHydrated();
  const close = closeHref ?? closeDialogHref(location);
  const closeRef = useRef(close);
  closeRef.current = close;

  // The row this dialog is about (`id=`), read when it opened: after it closes, the focus goes back to that row's menu.
  const subject = useRef(new URLSearchParams(location.search).get("id"));

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement !== document.body ? document.activeElement : null;
    const about = subject.current;
    if (!dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      try {
        dialog.showModal();
      } catch {
        dialog.setAttribute("open", "");
      }
    }
    // Focus the first field with an error, else the first field (showModal focuses the first focusable, often Cancel).
    dialogFocusTarget(dialog, false)?.focus();
    return () => {
      // Closing (rather than just removing) returns focus to what opened the dialog; once the page
      // behind is rendered, focus that is nowhere goes to the dialog's opener on the page.
      if (dialog.open) dialog.close();
      setTimeout(() => restoreFocusAfterDialog(opener, name, about), 0);
    };
    // The dialog opens once per mount (its name is fixed for it: UrlDialog mounts another for another name).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A control that replaces the dialog's form (a deployment switch, a side panel and its Back)
  // removes the focused element: focus would drop to <body> (issue 27 item 14). It goes to the
  // same control in the new form (same name and value), else to dialogFocusTarget's choice (an
  // answer in place of the form: issue 63 item 18).
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || typeof MutationObserver === "undefined") return;
    let lastEl: HTMLElement | null = null;
    let last: { name: string; value: string } | null = null;
    const onFocusIn = (event: Event) => {
      const t = event.target as HTMLElement;
      const name = t.getAttribute("name");
      const value = t.getAttribute("value");
      lastEl = t;
      last = name && value ? { name, value } : null;
    };
    const observer = new MutationObserver(() => {
      // Only when the focused control itself was removed (a click elsewhere is left alone).
      if (!dialog.open || !lastEl || lastEl.isConnected) return;
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected) return;
      lastEl = null;
      const same = last ? dialog.querySelector<HTMLElement>(`[name="${CSS.escape(last.name)}"][value="${CSS.escape(last.value)}"]`) : null;
      (same ?? dialogFocusTarget(dialog, true))?.focus();
    });
    observer.observe(dialog, { childList: true, subtree: true });
    const stop = listen(dialog, { focusin: onFocusIn });
    return () => {
      observer.disconnect();
      stop();
    };
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      navigate(closeRef.current, { preventScrollReset: true, replace: false });
    };
    const onClick = (event: Event) => {
      // A click on the backdrop (the <dialog> itself, outside the box) closes it.
      if (event.target === dialog) navigate(closeRef.current, { preventScrollReset: true });
    };
    return listen(dialog, { cancel: onCancel, click: onClick });
  }, [navigate]);

  return (
    <DialogContext.Provider value={{ closeHref: close, titleId }}>
      <dialog ref={ref} open className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId} data-url-dialog="">
        <div
          className={`modal-box kit-dialog-box ${size === "lg" ? "sm:max-w-2xl" : "sm:max-w-lg"}`}
          // No JS: the page loads with focus in the dialog (a Tab then reaches its first control).
          tabIndex={-1}
          autoFocus={!hydrated}
        >
          <div className="mb-2 flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-xl font-semibold">
              {title}
            </h2>
            <Link to={close} className="btn btn-ghost btn-sm btn-square" aria-label="Close" preventScrollReset>
              <span aria-hidden="true">✕</span>
            </Link>
          </div>
          {children}
        </div>
      </dialog>
    </DialogContext.Provider>
  );
}

/** The dialog's button row: Cancel (a link back to the URL without the dialog) and your buttons. */
export function DialogActions({ children, cancelLabel = "Cancel" }: { children?: ReactNode; cancelLabel?: string }) {
  return (
    <div className="modal-action">
      <DialogCancel>{cancelLabel}</DialogCancel>
      {children}
    </div>
  );
}

/** A form's buttons: in a dialog the row with Cancel (DialogActions), on a page a row of their own. */
export function FormActions({ inDialog = false, className, children }: { inDialog?: boolean; className?: string; children: ReactNode }) {
  return inDialog ? <DialogActions>{children}</DialogActions> : <div className={className}>{children}</div>;
}

/** The answer of a dialog whose row is gone (deleted meanwhile, or another account's id), with its Cancel. */
export function DialogGone({ children }: { children: ReactNode }) {
  return (
    <>
      <p>{children}</p>
      <DialogActions />
    </>
  );
}

/** A dialog's warning above its form, e.g. that what it needs is missing ("There are no entities yet. Create an entity first."). */
export function DialogWarning({ children }: { children: ReactNode }) {
  return (
    <p className="alert alert-warning mb-2">
      <span>{children}</span>
    </p>
  );
}

/** A Cancel link that closes the surrounding dialog. */
export function DialogCancel({ children = "Cancel", className = "btn" }: { children?: ReactNode; className?: string }) {
  const ctx = useContext(DialogContext);
  const location = useLocation();
  return (
    <Link to={ctx?.closeHref ?? closeDialogHref(location)} className={className} preventScrollReset>
      {children}
    </Link>
  );
}
