import { formDialog } from "./dialog.tsx";
import { ToggleForm, toggleUnchangedError, type ToggleDialogProps } from "./toggle-form.tsx";

/*
 * An on/off switch in a URL-opened dialog (advanced visibility, MFA, proxying…). Spec 1 §4: Confirm
 * is disabled until the value differs from the current one, and enabled again after an error other
 * than "unchanged" (toggleConfirmDisabled, toggle-form.tsx). The server refuses an unchanged value
 * with the form's schema (toggleSchema, toggle.server.ts: the call's request with its switch read
 * from a checkbox), so it holds without JS (where Confirm is never disabled).
 *
 *   // action: `current` is what the platform says now
 *   submitForm(request, formData, { schema: toggleSchema(current, "enabled", ProxyingBody.shape), call: "configure-endpoint-proxying", … });
 */

export { toggleUnchangedError };

export type { ToggleDialogProps };

/** The switch in a dialog (`?dialog={name}`): the text above it (`children`), the switch, Confirm beside Cancel. */
export const ToggleDialog = formDialog<ToggleDialogProps>(ToggleForm);
