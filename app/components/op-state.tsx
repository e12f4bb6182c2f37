/*
 * The op-state dot (spec 1 §4): "up" is a green dot, any other value a red dot, and a missing
 * value shows 'N/A' without a dot. The value is always written next to the dot (colour is never
 * the only signal), and `label` gives screen readers the context ("Op state: up").
 */
export function OpState({ value, label = "Op state" }: { value: string | null | undefined; label?: string }) {
  if (value === null || value === undefined || value === "") {
    return (
      <span>
        <span className="sr-only">{label}: </span>N/A
      </span>
    );
  }
  const up = value.toLowerCase() === "up";
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${up ? "bg-success" : "bg-error"}`} />
      <span className="sr-only">{label}: </span>
      {value}
    </span>
  );
}
