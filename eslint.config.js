// The linter `npm test` runs before the tests (scripts/test.mjs): TypeScript's recommended rules,
// React's rules of hooks, and no explicit `any` (a cast or `any` that must stay says why in a comment).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "data/**", "test-results/**", "playwright-report/**", "bench/out/**", "bench/tmp/**", "public/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // `import type` keeps platform types (and zod) out of the browser bundle.
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      "no-empty": ["error", { allowEmptyCatch: true }],
      // A `let` read by a closure before its one assignment (a timer the closure clears) stays a `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Validators reject control characters on purpose.
      "no-control-regex": "off",
    },
  },
  {
    // Tests read JSON answers of any shape; Playwright's fixtures call `use`, which is not React's.
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**", "platform/test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
);
