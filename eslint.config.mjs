// ESLint (flat config): @eslint/js and typescript-eslint's recommended rules over the TypeScript and
// JavaScript of the plugin, its packages, tests, benches, scripts and the demo. Formatting is
// prettier's (.prettierrc.json); `npm run lint` runs both checks.
import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.medusa/**",
      "**/dist/**",
      ".tmp/**",
      "demo/.data/**",
      "demo/app/public/**",
      "integration-tests/browser/app/public/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        fetch: "readonly",
        AbortController: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        structuredClone: "readonly",
        __dirname: "readonly",
        require: "readonly",
        module: "writable",
        exports: "writable",
        globalThis: "readonly",
        performance: "readonly",
        queueMicrotask: "readonly",
        window: "readonly",
        document: "readonly",
        navigator: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // the Medusa boundary still has `any` (issue 14: a typed boundary); counted as warnings until it is typed
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
  {
    files: ["**/*.cjs", "**/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
)
