import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the worker whose compiled file is `compiled` (`…/x.js` beside this module in `dist/`). Run
 * from the TypeScript sources (the tests, `tsx`), there is no such file: the worker then loads `x.ts`
 * through module hooks that strip its types with the TypeScript compiler, a development dependency
 * that is there whenever the sources are. The work still runs on its own thread either way.
 */
export function startWorker(compiled: URL, options: WorkerOptions): Worker {
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const source = new URL(compiled.href.replace(/\.js$/, ".ts"));
  if (!existsSync(fileURLToPath(source))) throw new Error(`${fileURLToPath(compiled)} is missing; rebuild ctxkit.`);
  const typescript = pathToFileURL(createRequire(import.meta.url).resolve("typescript")).href;
  const bootstrap = `
const { register } = require("node:module");
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(typescriptHooks)}`)}, { data: { typescript: ${JSON.stringify(typescript)} } });
import(${JSON.stringify(source.href)}).catch((error) => { throw error; });
`;
  return new Worker(bootstrap, { ...options, eval: true });
}

// Module hooks (a data: URL runs as its own module): `./x.js` resolves to `./x.ts` when only that exists,
// and a `.ts` file loads with its types removed.
const typescriptHooks = `
import { readFileSync } from "node:fs";
let ts;
export async function initialize(data) { ts = (await import(data.typescript)).default; }
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (!specifier.endsWith(".js") || !(context.parentURL ?? "").endsWith(".ts")) throw error;
    return next(specifier.slice(0, -3) + ".ts", context);
  }
}
export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const text = readFileSync(new URL(url), "utf8");
  const output = ts.transpileModule(text, { fileName: url, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  return { format: "module", source: output.outputText, shortCircuit: true };
}
`;
