import { CtxkitError } from "../../types/errors.js";

export type NodeLlamaCpp = typeof import("node-llama-cpp");

export const nodeLlamaCppInstallCommand = "npm install -E node-llama-cpp@3.21.1";

/**
 * Imports node-llama-cpp on first use. It is an optional peer dependency (its prebuilt native
 * binaries for every platform and GPU API come to ~700 MB), so ctxkit installs and works without it;
 * only the llama provider and `ctxkit bench serving` need it.
 */
export async function loadNodeLlamaCpp(specifier = "node-llama-cpp"): Promise<NodeLlamaCpp> {
  try {
    return (await import(specifier)) as NodeLlamaCpp;
  } catch (error) {
    // Not installed at all (the usual case: it is an optional peer): one sentence, the command.
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" && String((error as Error).message).includes(`'${specifier}'`)) {
      throw new CtxkitError("engine_unavailable", `The embedded engine needs the optional package ${specifier}; install it with: ${nodeLlamaCppInstallCommand}`, { cause: error });
    }
    throw new CtxkitError(
      "engine_unavailable",
      `The llama provider needs the optional package node-llama-cpp, which could not be loaded ` +
        `(${error instanceof Error ? error.message : String(error)}). Install it with: ${nodeLlamaCppInstallCommand}`,
      { cause: error },
    );
  }
}
