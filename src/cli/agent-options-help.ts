import { configSettings, invocationFlags, type FlagDeclaration } from "./config/config-settings.js";
import { formatOptionsHelp } from "./config/format-options-help.js";

// Invocation flags first in their group (the workspace and session come before where they are stored).
const declarations = [...invocationFlags, ...Object.values(configSettings)].filter((declaration): declaration is FlagDeclaration & typeof declaration => "flag" in declaration);

/** The options `run`, `chat` and `config` share, generated from the settings' table (see config-settings.ts). */
export const agentOptionsHelp = formatOptionsHelp(declarations);
