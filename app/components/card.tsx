import type { ReactNode } from "react";

/**
 * A titled card of a page (Settings, Billing): a landmark (`section`, or `aside` for help) named
 * by its h2.
 */
export function Card({
  id,
  title,
  as: Tag = "section",
  className = "bg-base-100 shadow-sm",
  bodyClassName = "card-body",
  children,
}: {
  /** The h2's id, naming the landmark. */
  id: string;
  title: string;
  as?: "section" | "aside";
  className?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  return (
    <Tag className={`card ${className}`} aria-labelledby={id}>
      <div className={bodyClassName}>
        <h2 id={id} className="card-title text-lg">
          {title}
        </h2>
        {children}
      </div>
    </Tag>
  );
}
