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
    // Node's recursive mkdir spins forever under /proc (a --data-dir there hung `ctxkit run`).
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts", "src/**/test-support/**", "src/types/make-directory-tree.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.name=/^mkdir(Sync)?$/] Property[key.name='recursive'], CallExpression[callee.property.name=/^mkdir(Sync)?$/] Property[key.name='recursive']",
          message: "Use makeDirectoryTree(Sync) from src/types/make-directory-tree.ts: Node's recursive mkdir never returns for a folder under /proc.",
        },
      ],
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
