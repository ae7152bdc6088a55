import { agentOptionsHelp } from "../agent-options-help.js";
import { parseCommandLine } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { createToolsFromConfig } from "../create-agent-from-config.js";
import { describeConfig, resolveConfig } from "../resolve-config.js";

export const configHelp = `Usage: ctxkit config [options]

Prints the resolved configuration (flags, then environment, then ctxkit.config.json in the workspace,
then ~/.config/ctxkit/config.json, then defaults) as JSON, with the API key masked and where each
value came from. It takes the options of 'ctxkit run', so it shows what a run with them would use;
an unknown tool or value is refused as 'ctxkit run' would refuse it.

${agentOptionsHelp}
Exit codes: 0 done; 1 a value is refused (an unknown tool, a bad config file); 2 a usage error.
`;

export async function configCommand(args: string[], io: CliIo): Promise<number> {
  const { flags } = parseCommandLine(args);
  if (flags.help) {
    io.stdout.write(configHelp);
    return 0;
  }
  const config = resolveConfig({ ...flags, workspace: flags.workspace ?? io.cwd }, io.env, { cwd: io.cwd });
  // The same check a run makes, so `config` never shows a tool list that `run` would refuse.
  createToolsFromConfig(config);
  io.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
  return 0;
}
