import type { ReactNode } from "react";
import { PageTitle } from "../../components/screen.tsx";

/*
 * The App Services screen's frame: title and heading, as the kit's Screen draws them. Not Screen
 * itself: its chunk (with useScreen/replyOf) is 0.46 KB gzip more on the Details tab, whose JS budget
 * (150 KB gzip) has no room left. Other screens use Screen / ListScreen.
 */
export function ServicePage({ title, error, children }: { title: string; error: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title={title} error={error} />
      <h1 id="page-title" className="text-2xl font-semibold">
        {title}
      </h1>
      {children}
    </section>
  );
}
