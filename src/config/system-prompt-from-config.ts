import { readFileSync } from "node:fs";
import { storedPromptParts, type SessionStore, type StoredPromptParts } from "../session/index.js";
import { loadForResume } from "../session/reorder-on-resume.js";
import type { SessionWarning } from "../session/loaded-session.js";
import { ConfigError, type SystemPrompt } from "../types/index.js";
import type { AgentConfig } from "./agent-config.js";
import { describeInstructionsChange, instructionsVersion, lastAnnouncedVersion, loadProjectInstructions, type ProjectInstructions } from "./project-instructions.js";
import { stripByteOrderMark } from "../types/byte-order-mark.js";

export const defaultSystemPrompt = `You are ctxkit, a coding agent working in the user's workspace through tools.
Read files before you change them, keep edits minimal, prefer searching (grep, glob) over reading whole large files,
and verify your work. When you are done, answer with a short summary of what you did and found.`;

export interface ConfiguredSystemPrompt {
  system: string | SystemPrompt;
  /** The project instruction files in the system prompt (empty with `projectInstructions: false`). */
  instructionFiles: string[];
  /**
   * A resumed session's context-policy sections as they were sent (the skills catalog among them), not
   * in `system`, which holds the base prompt they are added to again. Undefined for a new session.
   */
  storedPolicySections?: string;
  /** What opening the stored session said (records put back in order with `repair`). */
  warnings: SessionWarning[];
  /**
   * Call before each user message: when AGENTS.md / CLAUDE.md changed since the session started (or
   * since the last announcement), the text to put before the message; otherwise undefined.
   */
  takeInstructionsChange(): string | undefined;
}

/**
 * The system prompt of a configured agent: `given` as it is, or else a new session gets the base prompt (the config's
 * `system`, else ctxkit's) with the project's instructions in its session part, decided once; a
 * resumed one keeps the prompt it was started with, byte for byte (the cache stays valid), and a
 * later change of the instructions is announced in the trajectory instead.
 */
export async function systemPromptFromConfig(
  config: AgentConfig,
  given: string | SystemPrompt | undefined,
  resumed?: { store: SessionStore; id: string; repair: boolean },
): Promise<ConfiguredSystemPrompt> {
  // A prompt the caller gives is used as it is (the demo's); the config's `system` gets the instructions.
  if (given !== undefined) return { system: given, instructionFiles: [], warnings: [], takeInstructionsChange: () => undefined };
  const readInstructions = (): ProjectInstructions => (config.projectInstructions ? loadProjectInstructions(config.workspace) : { files: [], text: "" });
  const instructions = readInstructions();
  const base = config.system === undefined ? undefined : readSystemSetting(config.system);
  let system: string | SystemPrompt;
  let storedPolicySections: string | undefined;
  const warnings: SessionWarning[] = [];
  // The version of the instructions the model last heard of: the system prompt's, or a later announcement's.
  let announced: string;
  if (resumed) {
    // Records out of order are refused here already, naming repair; with it they are put back in order now.
    const { loaded, reordered } = await loadForResume(resumed.store, resumed.id, resumed.repair);
    if (reordered) warnings.push(reordered);
    const stored = loaded.prefix.system;
    // The base prompt, so the policies' sections are added once even when they render otherwise now.
    const parts = storedPromptParts(loaded.prefix) ?? partsOfOlderPrompt(stored);
    // The config's `system` is the static part only: the session part (the instructions decided when
    // the session started) stays, as a new session with that setting has it.
    system = base === undefined ? parts.base : parts.base.sessionText ? { staticText: base, sessionText: parts.base.sessionText } : base;
    storedPolicySections = parts.sections;
    const userTexts = loaded.messages.flatMap((message) => (message.role === "user" ? [message.content] : []));
    announced = lastAnnouncedVersion(userTexts) ?? instructionsVersion(storedInstructions(stored.sessionText));
  } else {
    const text = base ?? defaultSystemPrompt;
    system = instructions.text === "" ? text : { staticText: text, sessionText: instructions.text };
    announced = instructionsVersion(instructions.text);
  }
  return {
    system,
    ...(storedPolicySections === undefined ? {} : { storedPolicySections }),
    instructionFiles: instructions.files,
    warnings,
    takeInstructionsChange() {
      if (!config.projectInstructions) return undefined;
      const current = readInstructions();
      const version = instructionsVersion(current.text);
      if (version === announced) return undefined;
      announced = version;
      return describeInstructionsChange(current);
    },
  };
}

/** `system`: the prompt's text, or `@<file>` (made absolute when the config was resolved). */
function readSystemSetting(value: string): string {
  if (!value.startsWith("@")) return value;
  const path = value.slice(1);
  try {
    return stripByteOrderMark(readFileSync(path, "utf8"));
  } catch (error) {
    // The library's words (the CLI's toCliMessage names --system): a program set the `system` setting.
    throw new ConfigError(
      "option_invalid",
      `The \`system\` setting ${value}: cannot read ${path} (${error instanceof Error ? error.message : String(error)}). Give "@" and a readable file's path, or the prompt's text itself.`,
    );
  }
}

/**
 * A prompt stored before prefixes recorded where the policies' sections begin: the session part this
 * function gives a new session is the project instructions block, so everything after it is the
 * policies'. Read by that block's tags, never by a section's heading, which an AGENTS.md may hold too.
 */
function partsOfOlderPrompt(stored: SystemPrompt): StoredPromptParts {
  const sessionText = stored.sessionText ?? "";
  const instructions = storedInstructions(sessionText);
  if (instructions === sessionText) return { base: { ...stored }, sections: undefined };
  if (instructions === "") return { base: { staticText: stored.staticText }, sections: sessionText };
  const rest = sessionText.slice(instructions.length);
  // Not the blank line the sections follow: leave the prompt whole (a declared cache break at worst).
  if (!rest.startsWith("\n\n")) return { base: { ...stored }, sections: undefined };
  return { base: { staticText: stored.staticText, sessionText: instructions }, sections: rest.slice(2) };
}

/**
 * The project instructions inside a stored session part of the system prompt, which may also hold
 * context policies' sections after them (the skills catalog): from its opening line to its last
 * `</instructions>` (policies escape their file text, so none can close that tag).
 */
function storedInstructions(sessionText = ""): string {
  if (!sessionText.startsWith("Project instructions (from")) return "";
  const end = sessionText.lastIndexOf("</instructions>");
  return end === -1 ? sessionText : sessionText.slice(0, end + "</instructions>".length);
}
