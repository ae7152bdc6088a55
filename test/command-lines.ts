import { benchCommandLines } from "../src/cli/commands/bench-command.js";
import { chatOptions } from "../src/cli/commands/chat-command.js";
import { configOptions } from "../src/cli/commands/config-command.js";
import { demoOptions } from "../src/cli/commands/demo-command.js";
import { inspectOptions } from "../src/cli/commands/inspect-command.js";
import { lintToolsOptions } from "../src/cli/commands/lint-tools-command.js";
import { replayOptions } from "../src/cli/commands/replay-command.js";
import { runOptions } from "../src/cli/commands/run-command.js";
import { runsOptions } from "../src/cli/commands/runs-command.js";
import { sessionsOptions } from "../src/cli/commands/sessions-command.js";
import { skillsOptions } from "../src/cli/commands/skills-command.js";
import { submitOptions } from "../src/cli/commands/submit-command.js";
import { viewOptions } from "../src/cli/commands/view-command.js";
import { workerOptions } from "../src/cli/commands/worker-command.js";
import type { CommandOptions } from "../src/cli/cli-options.js";

/** Every command line with the options object it hands parseCommandLine (the flags it parses, besides --help). */
export const commandLines: Array<{ words: string[]; options: CommandOptions }> = [
  { words: ["demo"], options: demoOptions },
  { words: ["run"], options: runOptions },
  { words: ["chat"], options: chatOptions },
  { words: ["sessions"], options: sessionsOptions },
  { words: ["worker"], options: workerOptions },
  { words: ["submit"], options: submitOptions },
  { words: ["runs"], options: runsOptions },
  { words: ["skills"], options: skillsOptions },
  { words: ["config"], options: configOptions },
  { words: ["inspect"], options: inspectOptions },
  { words: ["replay"], options: replayOptions },
  { words: ["view"], options: viewOptions },
  { words: ["lint", "tools"], options: lintToolsOptions },
  ...benchCommandLines().map(({ words, options }) => ({ words: ["bench", ...words], options })),
];
