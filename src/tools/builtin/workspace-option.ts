import { ConfigError } from "../../types/index.js";

/**
 * A built-in tool's `workspace`, checked when the tool is made: from plain JavaScript (or a cast) a
 * missing one made tools whose every call failed with Node's 'The "paths[0]" argument must be of
 * type string', told to the model instead of to the program that built them.
 */
export function checkWorkspaceOption(factory: string, options: { workspace?: unknown } | undefined): void {
  const workspace = options?.workspace;
  if (typeof workspace !== "string" || workspace === "") {
    throw new ConfigError("option_invalid", `${factory} needs \`workspace\`: the folder the tools are confined to, e.g. ${factory}({ workspace: process.cwd() }); got ${JSON.stringify(workspace) ?? "undefined"}.`);
  }
}
