import { ToolError, type Tool } from "../types/index.js";
import { isModelInvocable, type Skill } from "./skill.js";
import { activeSkillNames } from "./skill-messages.js";

export interface SkillArgs {
  name: string;
  arguments?: string;
}

/** The short result the model sees; the body follows as a user message (see the skills policy). */
export function loadedSkillText(name: string): string {
  return `Loaded skill '${name}'. Its instructions follow in the next message.`;
}

export function alreadyActiveSkillText(name: string): string {
  return `Skill '${name}' is already active; its instructions are earlier in this conversation.`;
}

/**
 * The model-facing activation tool. It only checks the name: the body is appended by the policy's
 * `prepareContext` as a user message after the result, so the tool result stays short and the
 * body sits where the seed puts it (Claude Code's shape).
 */
export function createSkillTool(skills: readonly Skill[] | (() => readonly Skill[])): Tool<SkillArgs> {
  // A getter: skills announced mid-session can be loaded too (the definition itself never changes).
  const current = typeof skills === "function" ? skills : () => skills;
  const names = current().filter(isModelInvocable).map((skill) => skill.name);
  return {
    name: "skill",
    description:
      "Load a skill from <available_skills> by its name: its full instructions are added to the conversation. " +
      "Call it before starting a task that matches a skill's description. Example: {\"name\": \"" + (names[0] ?? "pdf-forms") + "\"}",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "The skill's name, exactly as listed in <available_skills>." },
        arguments: { type: "string", description: "Optional text for the skill (what to apply it to)." },
      },
      required: ["name"],
      additionalProperties: false,
    },
    parallelSafe: true,
    async execute(args, context) {
      const all = current();
      const available = all.filter(isModelInvocable).map((skill) => skill.name);
      if (all.some((skill) => skill.name === args.name && !isModelInvocable(skill))) {
        throw new ToolError("permission", `Skill '${args.name}' sets disable-model-invocation: only the person can start it by typing /${args.name}. Ask them to, if it fits the task.`);
      }
      if (!available.includes(args.name)) {
        throw new ToolError("not_found", `Skill '${args.name}' not found. Available: ${available.join(", ") || "none"}.`);
      }
      return activeSkillNames(context.messages ?? []).includes(args.name) ? alreadyActiveSkillText(args.name) : loadedSkillText(args.name);
    },
  };
}
