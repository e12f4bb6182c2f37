import { createCookie } from "react-router";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { secureCookies, sessionSecrets } from "./env.server.ts";

const cookie = createCookie("csrf", {
  path: "/",
  httpOnly: true,
  secure: secureCookies,
  sameSite: "lax",
  secrets: sessionSecrets,
});

export const csrf = new CSRF({ cookie, formDataKey: "csrf", secret: sessionSecrets[0] });

/**
 * Reads a posted form and checks its CSRF token. A bad token answers 403: the form is stale or
 * forged, and nothing is changed.
 */
export async function readForm(request: Request): Promise<FormData> {
  const formData = await request.formData();
  try {
    await csrf.validate(formData, request.headers);
  } catch (error) {
    if (error instanceof CSRFError) {
      throw new Response("Your form has expired. Reload the page and try again.", { status: 403 });
    }
    throw error;
  }
  return formData;
}
