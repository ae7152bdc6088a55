import { CtxkitError } from "../../types/errors.js";

export type NodeLlamaCpp = typeof import("node-llama-cpp");

export const nodeLlamaCppInstallCommand = "npm install -E node-llama-cpp@3.21.1";

/**
 * Imports node-llama-cpp on first use. It is an optional dependency (prebuilt native binaries of
 * ~30 MB per platform), so ctxkit installs and works without it; only the llama provider needs it.
 */
export async function loadNodeLlamaCpp(specifier = "node-llama-cpp"): Promise<NodeLlamaCpp> {
  try {
    return (await import(specifier)) as NodeLlamaCpp;
  } catch (error) {
    throw new CtxkitError(
      "engine_unavailable",
      `The llama provider needs the optional package node-llama-cpp, which could not be loaded ` +
        `(${error instanceof Error ? error.message : String(error)}). Install it with: ${nodeLlamaCppInstallCommand}`,
      { cause: error },
    );
  }
}
