import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { apiPost, callApi } from "../../lib/api.server.ts";
import { requestToken } from "../../lib/auth.server.ts";
import { safeReply, upstreamReply } from "../../lib/forms.server.ts";
import type { SessionData } from "../../lib/session.server.ts";
import { getAccount } from "../../lib/shell.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { passwordSchema, WRONG_CURRENT_PASSWORD } from "./password-form.tsx";

/* The action of Settings' password form (see password-form.tsx). */

/**
 * Is `password` the signed-in user's password? Asks POST /api/v1/token for this user and account.
 * A token that the check obtains is revoked at once. With MFA on, the platform answers a right
 * password by e-mailing a login code (which expires unused): that answer also means "right".
 */
async function checkCurrentPassword(request: Request, user: SessionData, password: string) {
  const account = await getAccount(request);
  const outcome = await requestToken({ username: user.username, password, account_id: account.ok ? account.data.account_id : undefined });
  if (outcome.kind === "token") {
    try {
      await callApi(null, "POST", "logout", { token: outcome.token.access_token, body: {} });
    } catch (error) {
      console.error("[console] password check: could not revoke the check's token:", error instanceof Error ? error.message : error);
    }
  }
  return outcome;
}

export async function passwordAction(request: Request, formData: FormData, user: SessionData) {
  const submission = parseWithZod(formData, { schema: passwordSchema });
  if (submission.status !== "success") return data({ result: safeReply(submission) }, { status: 400 });
  const { current_password, password } = submission.value;

  const check = await checkCurrentPassword(request, user, current_password);
  if (check.kind === "error") {
    if (check.result.status === 401) {
      return data({ result: safeReply(submission, { fieldErrors: { current_password: [WRONG_CURRENT_PASSWORD] } }) }, { status: 400 });
    }
    // 429 (too many wrong passwords) and anything else: the platform's message in the summary.
    return upstreamReply(submission, check.result, []);
  }

  // An account sends {username, password}; an IAM user only {password} (spec 1 §5).
  const result =
    user.session_type === "account"
      ? await apiPost(request, "update-account", { username: user.username, password })
      : await apiPost(request, "update-iam-user", { password });
  if (!result.ok) return upstreamReply(submission, result, ["password"]);
  return redirectWithToast(request, "/account", { type: "success", message: "Account updated." });
}

