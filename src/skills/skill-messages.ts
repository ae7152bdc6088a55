import { derivedOf, type Message, type UserMessage } from "../types/index.js";
import type { Skill } from "./skill.js";

/** The name the skills policy and its checkpoints carry. */
export const skillsPolicyName = "skills";

/** The body of a skill as the model reads it: where it lives (for `skill_file`) and its instructions. */
export function renderSkillBody(skill: Skill, options: { args?: string; maxChars?: number } = {}): string {
  const limit = options.maxChars ?? Number.POSITIVE_INFINITY;
  const body =
    skill.body.length <= limit
      ? skill.body
      : `${skill.body.slice(0, limit)}\n[skill body cut at ${limit} of ${skill.body.length} characters; call skill_file with {"skill": "${skill.name}", "path": "SKILL.md"} for the rest]`;
  const args = options.args?.trim() ? `\nARGUMENTS: ${options.args.trim()}` : "";
  return `<skill name="${skill.name}" location="${skill.path}">\nFiles of this skill are read with skill_file (paths relative to ${skill.directory}).\n\n${body}\n</skill>${args}`;
}

/** The harness message that brings a skill's body in after the model's `skill` call. */
export function createSkillMessage(skill: Skill, toolCallId: string, id: string, now: Date, args?: string): UserMessage {
  return {
    role: "user",
    content: renderSkillBody(skill, args === undefined ? {} : { args }),
    meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "skill", name: skill.name, via: "tool", toolCallId } },
  };
}

/** What a skills checkpoint stores: the skills re-injected after a compaction, and those dropped to fit. */
export interface SkillsCheckpointData {
  version: 1;
  active: string[];
  dropped: string[];
}

/**
 * The skills whose bodies are in the context, in activation order: read from the metadata the
 * harness stored (skill messages and skills checkpoints), never from text a model or tool could write.
 */
export function activeSkillNames(messages: readonly Message[]): string[] {
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const message of messages) {
    const skill = derivedOf(message, "skill");
    if (skill && typeof skill.name === "string") add(skill.name);
    const checkpoint = derivedOf(message, "checkpoint");
    if (checkpoint?.policy === skillsPolicyName) for (const name of checkpointData(checkpoint.data)?.active ?? []) add(name);
  }
  return names;
}

// The data comes from a session file: check it before trusting it.
function checkpointData(raw: unknown): SkillsCheckpointData | undefined {
  const value = raw as Partial<SkillsCheckpointData> | null;
  if (value?.version !== 1 || !Array.isArray(value.active)) return undefined;
  return { version: 1, active: value.active.filter((name) => typeof name === "string"), dropped: (value.dropped ?? []).filter((name) => typeof name === "string") };
}

export interface SkillsCheckpointLimits {
  /** Most characters of one skill's body carried over (default 20 000). */
  maxCharsPerSkill: number;
  /** Most characters of all bodies carried over (default 50 000); skills activated last are kept first. */
  maxTotalChars: number;
}

/**
 * The active skills' bodies, re-injected right after a compaction removed the messages that held
 * them. The most recently activated skills are kept first; those that do not fit are named, so the
 * model can load them again. Pure.
 */
export function createSkillsCheckpoint(skills: readonly Skill[], limits: SkillsCheckpointLimits, id: string, now: Date): UserMessage | undefined {
  if (skills.length === 0) return undefined;
  const kept: Skill[] = [];
  const dropped: string[] = [];
  let total = 0;
  for (const skill of [...skills].reverse()) {
    const size = Math.min(skill.body.length, limits.maxCharsPerSkill);
    if (total + size > limits.maxTotalChars) {
      dropped.push(skill.name);
      continue;
    }
    total += size;
    kept.unshift(skill);
  }
  const data: SkillsCheckpointData = { version: 1, active: kept.map((skill) => skill.name), dropped: dropped.reverse() };
  const droppedNote = data.dropped.length === 0 ? "" : `\nNot carried over (too long; load again with the skill tool if still needed): ${data.dropped.join(", ")}.`;
  const bodies = kept.map((skill) => renderSkillBody(skill, { maxChars: limits.maxCharsPerSkill })).join("\n\n");
  return {
    role: "user",
    content: `<active_skills>\nSkills activated before the summarised part of this conversation, still in force (kept by the harness):${droppedNote}\n\n${bodies}\n</active_skills>`,
    meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "checkpoint", policy: skillsPolicyName, data } },
  };
}
