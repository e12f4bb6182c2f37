import { Icon } from "./shell/icons.tsx";

/**
 * The product's logo: one mark and the name, the same on the sign-in pages and in the top bar
 * (the favicon draws the same mark). Decorative mark; the name is the text.
 */
export function Logo({ productName, size = "md" }: { productName: string; size?: "md" | "lg" }) {
  // In the top bar of a 320 px phone the mark gives its room to the name (it was cut to 'L.': issue 27 item 18).
  return (
    <span className="flex min-w-0 items-center gap-2">
      <span className={`bg-primary text-primary-content grid shrink-0 place-items-center rounded-lg ${size === "lg" ? "size-10" : "size-9 max-[400px]:hidden"}`} aria-hidden="true">
        <Icon name="logo" className={size === "lg" ? "size-7" : "size-6"} />
      </span>
      <span className={`truncate font-semibold ${size === "lg" ? "text-2xl tracking-tight" : "text-lg max-[400px]:text-base"}`}>{productName}</span>
    </span>
  );
}
