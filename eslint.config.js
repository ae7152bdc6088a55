import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    files: ["src/cli/**", "src/bench/**", "src/web/**"],
    rules: { "no-console": "off" },
  },
  {
    // Scripts and the binary run in Node as they are (not compiled): its globals, and they print.
    files: ["bin/**/*.js", "scripts/**/*.mjs"],
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "URL", "URLSearchParams", "Buffer", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "fetch", "AbortController", "TextDecoder", "TextEncoder"].map((name) => [name, "readonly"]),
      ),
    },
    rules: { "no-console": "off" },
  },
  {
    files: ["bin/**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", __dirname: "readonly", __filename: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
