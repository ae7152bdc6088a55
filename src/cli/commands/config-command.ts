import { parseCommandLine } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { describeConfig, resolveConfig } from "../resolve-config.js";

export const configHelp = `Usage: ctxkit config [options]

Prints the resolved configuration (flags, then environment, then ctxkit.config.json in the workspace,
then ~/.config/ctxkit/config.json, then defaults) as JSON, with the API key masked and where each
value came from.
`;

export async function configCommand(args: string[], io: CliIo): Promise<number> {
  const { flags } = parseCommandLine(args);
  if (flags.help) {
    io.stdout.write(configHelp);
    return 0;
  }
  const config = resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env);
  io.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
  return 0;
}
