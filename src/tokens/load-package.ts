import { createRequire } from "node:module";
import { ConfigError } from "../types/errors.js";

const requireFromHere = createRequire(import.meta.url);

/**
 * Loads a dependency synchronously, on first use. Tokenizer packages are large (the Qwen3 bundle is
 * 7 MB of JavaScript plus an 11 MB vocabulary) so importing them eagerly would slow every
 * `import "ctxkit"` by a second; `count()` is synchronous, so the lazy load must be too.
 */
export function loadPackage<T>(specifier: string): T {
  try {
    return requireFromHere(specifier) as T;
  } catch (error) {
    throw new ConfigError(
      "dependency_missing",
      `Could not load "${specifier}" (${error instanceof Error ? error.message : String(error)}). ` +
        "Reinstall ctxkit's dependencies (npm install) or use createEstimatedTokenCounter().",
      { cause: error },
    );
  }
}
