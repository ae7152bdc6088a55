import { createRequire } from "node:module";

/**
 * A `require` for the module at `moduleUrl` (its `import.meta.url`), made when first called. Node's
 * `createRequire` works out the module's whole node_modules lookup path at once: the CLI's run chunk
 * made sixteen at load, 2–3 ms of every start, for packages most runs never load (issue 30, item 6).
 * In the top layer so that every layer's lazy loads share it.
 */
export function createLazyRequire(moduleUrl: string): (id: string) => unknown {
  let require: NodeJS.Require | undefined;
  return (id) => (require ??= createRequire(moduleUrl))(id);
}
