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
    <OpenDialog title={title} closeHref={closeHref} size={size}>
      {children}
    </OpenDialog>
  );
}

function OpenDialog({ title, children, closeHref, size }: { title: string; children: ReactNode; closeHref?: string; size: "md" | "lg" }) {
  const location = useLocation();
  const navigate = useNavigate();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hydrated = useHydrated();
  const close = closeHref ?? closeDialogHref(location);
  const closeRef = useRef(close);
  closeRef.current = close;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.matches(":modal")) {
      if (dialog.open) dialog.close();
      try {
        dialog.showModal();
      } catch {
        dialog.setAttribute("open", "");
      }
    }
    // Focus the first field with an error, else the first field (showModal focuses the first focusable, often Cancel).
    const target =
      dialog.querySelector<HTMLElement>("[aria-invalid='true']") ??
      dialog.querySelector<HTMLElement>("[autofocus]:not([tabindex='-1']), input:not([type='hidden']):not([disabled]), select:not([disabled]), textarea:not([disabled])");
    target?.focus();
    return () => {
      // Closing (rather than just removing) returns focus to what opened the dialog.
      if (dialog.open) dialog.close();
    };
  }, []);

  // A control that replaces the dialog's form (a deployment switch, a side panel and its Back)
  // removes the focused element: focus would drop to <body> (issue 27 item 14). It goes to the
  // same control in the new form (same name and value), else the first invalid or first field.
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
      const target = same ?? dialog.querySelector<HTMLElement>("[aria-invalid='true']") ?? dialog.querySelector<HTMLElement>("input:not([type='hidden']):not([disabled]), select:not([disabled]), textarea:not([disabled])");
      target?.focus();
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
