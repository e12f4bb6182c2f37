import { z } from "zod";
import { confirmPhraseError } from "./confirm-phrase-dialog.tsx";

export {
  ConfirmPhraseDialog,
  ConfirmPhraseForm,
  confirmPhraseError,
  confirmPhraseLabel,
  type ConfirmPhraseDialogProps,
} from "./confirm-phrase-dialog.tsx";

/*
 * A delete that needs a typed phrase ('confirm', an id…). The phrase is checked by the action with
 * the same schema (confirmPhraseSchema), so it holds without JavaScript.
 *
 *   // action
 *   const submission = parseWithZod(formData, { schema: confirmPhraseSchema("confirm", { contact_id: z.string() }) });
 *   if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
 *
 *   // component (inside the route, shown when ?dialog=remove&id=…)
 *   <ConfirmPhraseDialog name="remove" title="Remove Contact" phrase="confirm" intent="remove"
 *     fields={{ contact_id: id }} lastResult={actionData?.result} submitLabel="Remove">
 *     <p>Remove Ada Lovelace?</p>
 *   </ConfirmPhraseDialog>
 */

/** `{ confirm: phrase, ...extra }`: the typed text must equal the phrase (surrounding spaces ignored, case-sensitive). */
export function confirmPhraseSchema<Extra extends z.ZodRawShape = Record<never, never>>(phrase: string, extra?: Extra) {
  const error = confirmPhraseError(phrase);
  return z.object({
    ...(extra ?? ({} as Extra)),
    confirm: z
      .string({ error })
      .trim()
      .refine((v) => v === phrase, error),
  });
}

