/** The colour theme choice; "system" follows prefers-color-scheme (no cookie, no data-theme). */
export type ThemeChoice = "light" | "dark" | "system";

/** daisyUI theme names of the two themes (app.css defines both). */
export const THEME_NAMES = { light: "corporate", dark: "linkwise-dark" } as const;

/** The <html data-theme> value for a choice: none for "system", so CSS follows the system. */
export function themeAttribute(choice: ThemeChoice): string | undefined {
  return choice === "system" ? undefined : THEME_NAMES[choice];
}
