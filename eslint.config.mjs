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
      // tests, benches and the demo still hold `any` (fixtures, mocks): counted as warnings there
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
  {
    // the plugin as it ships: no `any` (Medusa's rows are typed through src/query.ts's graph<T>)
    files: ["src/**/*.ts", "src/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/__tests__/**"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  {
    files: ["**/*.cjs", "**/*.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
)
