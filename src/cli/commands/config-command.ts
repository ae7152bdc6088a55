import { agentOptionsHelp } from "../agent-options-help.js";
import { commonOptionsExcept, parseCommandLine } from "../cli-options.js";
import type { CliIo } from "../cli-io.js";
import { formatConfigKeysHelp } from "../config/format-config-keys-help.js";
import { createToolsFromConfig } from "../../config/create-agent-from-config.js";
import { describeConfig, describeSettings, resolveConfig } from "../resolve-config.js";
import { refuseExtraArguments } from "../refuse-extra-arguments.js";

export const configHelp = (): string => `Usage: ctxkit config [options]

Prints the resolved configuration (flags, then environment, then ctxkit.config.json in the workspace,
then ~/.config/ctxkit/config.json, then defaults) with the API key masked and where each value came
from. It takes the options of 'ctxkit run', so it shows what a run with them would use; an unknown
tool or value is refused as 'ctxkit run' would refuse it.

  --json                    every config key with its value and its source: the flag, the variable,
                            the workspace's or the user's file (by path), the default, or unset

${agentOptionsHelp()}
${formatConfigKeysHelp()}
Exit codes: 0 done; 1 a value is refused (an unknown tool, a bad config file); 2 a usage error.
`;

export const configOptions = commonOptionsExcept("verbose");

/** Every flag that sets a setting, as run takes them (but --verbose, which changes no setting). */
export async function configCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseCommandLine(args, configOptions);
  if (flags.help) {
    io.stdout.write(configHelp());
    return 0;
  }
  refuseExtraArguments(positionals, 0, "ctxkit config takes only options (it prints every setting; --json adds where each came from)");
  const config = resolveConfig(flags, io.env, { cwd: io.cwd });
  // The same check a run makes, so `config` never shows a tool list that `run` would refuse.
  createToolsFromConfig(config);
  for (const warning of config.warnings) io.stderr.write(`ctxkit config: ${warning}\n`);
  io.stdout.write(`${JSON.stringify(flags.json ? describeSettings(config) : describeConfig(config), null, 2)}\n`);
  return 0;
}
