import type { FormEvent, ReactNode } from "react";
import { Form, useLocation, type useFetcher } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { preferenceCookie } from "./preference-cookies.ts";

/**
 * A form posting a preference to /preferences (a cookie, so the server renders it). Without
 * JavaScript it is a plain POST that redirects back here; with JavaScript `choose` applies the
 * choice at once and returns the values the fetcher sends (`js=1`: no redirect); the choice's
 * cookie is written at once too, so that leaving the page before the answer keeps it.
 */
export function PreferencesForm({
  fetcher,
  choose,
  className,
  children,
}: {
  fetcher: ReturnType<typeof useFetcher>;
  choose: (event: FormEvent<HTMLFormElement>) => Record<string, string>;
  className: string;
  children: ReactNode;
}) {
  const location = useLocation();
  return (
    <Form
      method="post"
      action="/preferences"
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        for (const [name, value] of Object.entries(choose(event))) {
          data.set(name, value);
          const cookie = preferenceCookie(name, value);
          if (cookie) document.cookie = cookie;
        }
        data.set("js", "1");
        fetcher.submit(data, { method: "post", action: "/preferences" });
      }}
    >
      <AuthenticityTokenInput name="csrf" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {children}
    </Form>
  );
}
