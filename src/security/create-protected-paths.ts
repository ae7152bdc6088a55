import type { ContextPolicy } from "../context/context-policy.js";
import { isSameOrInside, realPlace, resolveWrittenPath } from "./resolve-written-path.js";

export const protectedPathsPolicyName = "protected-paths";

export interface ProtectedPathsOptions {
  /** The folder relative paths are resolved against (the file tools' workspace). */
  workspace: string;
  /** ctxkit's own settings and data: single files (the config files) and whole folders (the data dir, skill roots). */
  places: ReadonlyArray<{ path: string; what: string }>;
  /** Argument keys that name a file a call writes (default `path`, `file_path`). */
  pathKeys?: readonly string[];
}

/**
 * Protected files by identity, not by spelling (issue 24 item 5): a call of a tool that is not
 * read-only whose path argument resolves — after JSON unescaping (the arguments are parsed), `./`,
 * `..`, case and symlinks — to ctxkit's config, its data folder or a skills folder is asked about
 * with an approval bound to the exact call, under --yes and `allow` too; with no terminal it is
 * refused. Such a write could turn tools on, add an MCP server or plant a skill for the next run.
 * bash is guarded around the call instead (`protectFilesAround`).
 */
export function createProtectedPaths(options: ProtectedPathsOptions): ContextPolicy {
  const keys = options.pathKeys ?? ["path", "file_path"];
  const places = options.places.map((place) => ({ ...place, real: realPlace(place.path) }));
  return {
    name: protectedPathsPolicyName,
    inherit: "share",
    onToolCall({ call, tool }) {
      const risk = tool.risk ?? (tool.parallelSafe === true ? "read" : "write");
      if (risk === "read" || call.arguments === null || typeof call.arguments !== "object") return { action: "allow" };
      const args = call.arguments as Record<string, unknown>;
      const hits: string[] = [];
      for (const key of keys) {
        const value = args[key];
        if (typeof value !== "string" || value === "") continue;
        const target = resolveWrittenPath(value, options.workspace);
        const place = places.find((candidate) => isSameOrInside(target, candidate.real) || isSameOrInside(target, candidate.path));
        if (place) hits.push(`${JSON.stringify(value)} is ${place.what} (${target})`);
      }
      if (hits.length === 0) return { action: "allow" };
      const reasons = hits.map((hit) => `this call writes ctxkit's own settings or data: ${hit}; it could turn tools on, add a server or plant a skill for the next run`);
      return {
        action: "ask",
        reasons,
        exact: true,
        refusal: ({ said, hasHandler }) =>
          `'${call.name}' was not run: ${reasons.join("; ")}. Such a write runs only when the user confirms this exact call${hasHandler ? "" : ", and no approval handler is configured"}; it was not confirmed${said ? ` (the user said: ${said})` : ""}. Write somewhere else, or ask the user to make this change.`,
      };
    },
  };
}
