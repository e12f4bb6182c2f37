import type { ReactNode } from "react";

/** An error said in the page's flow (a platform call that failed), read out when it appears. */
export function ErrorText({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="text-error">
      {children}
    </p>
  );
}

/** The platform's answer where it shows: its error, or the content. */
export function ErrorOr({ error, children }: { error: string | null; children: ReactNode }) {
  return error ? <ErrorText>{error}</ErrorText> : <>{children}</>;
}
