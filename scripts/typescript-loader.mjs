// Lets plain Node (20 has no type stripping) run a TypeScript file of this checkout:
// `node --import ./scripts/typescript-loader.mjs some-file.ts`. Used when code that starts a child
// process runs from the sources (the tests) and the compiled file beside it does not exist; an
// installed package has its compiled files and never loads this. Each .ts module goes through
// TypeScript's transpiler (types removed, nothing checked); `./x.js` finds `./x.ts` when only that exists.
import { readFile } from "node:fs/promises";
import { register } from "node:module";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";

let typescript;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("file:");
    if (!relative || !specifier.endsWith(".js") || error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  typescript ??= (await import("typescript")).default;
  const fileName = fileURLToPath(url);
  const { outputText } = typescript.transpileModule(await readFile(fileName, "utf8"), {
    fileName,
    compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  return { format: "module", source: outputText, shortCircuit: true };
}

// Loaded with --import on the main thread: install this same file as the hooks.
if (isMainThread) register(import.meta.url);
