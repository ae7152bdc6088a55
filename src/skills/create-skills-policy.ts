import type { ContextEdit, ContextPolicy, TailState } from "../context/context-policy.js";
import { derivedOf, toolCallsOf, type Message, type Provenance, type ToolMessage, type UserMessage } from "../types/index.js";
import { createSkillFileTool } from "./create-skill-file-tool.js";
import { createSkillTool, type SkillArgs } from "./create-skill-tool.js";
import { renderSkillCatalog } from "./render-skill-catalog.js";
import { startCatalogStillFits } from "./start-catalog.js";
import { isModelInvocable, type Skill, type SkillCatalog, type SkillWarning } from "./skill.js";
import { createSkillsChangedMessage, diffSkills, isEmptySkillsChange, type SkillsChange } from "./skills-change.js";
import { activeSkillNames, createSkillMessage, createSkillsCheckpoint, renderSkillBody, skillsPolicyName } from "./skill-messages.js";

export interface SkillsPolicyOptions {
  /** The model's context window in tokens, for the listing budget (default 128 000). */
  contextWindow?: number;
  /** Share of the window the `<available_skills>` listing may take (default 0.01, as Claude Code). */
  catalogShare?: number;
  /** The listing budget in characters; overrides `contextWindow` × `catalogShare` × 4 characters per token. */
  catalogBudgetChars?: number;
  /** Skill names, most recently used first: over budget, the least recently used descriptions are cut first. */
  recentlyUsed?: readonly string[];
  /** Most characters of one body re-injected after a compaction (default 20 000). */
  maxCheckpointCharsPerSkill?: number;
  /** Most characters of all bodies re-injected after a compaction (default 50 000). */
  maxCheckpointChars?: number;
  /**
   * The `<available_skills>` block a resumed session started with (`findStartCatalog` of its stored
   * prompt): sent again as it is while it lists the same skills, so the prompt keeps its bytes.
   */
  startCatalog?: string;
  /** Name the active skills in the request's tail, beside the status bar (default false). */
  listActiveInTail?: boolean;
  /**
   * Whether a skill comes from a workspace the user has not trusted (a cloned repository's
   * `.ctxkit/skills`): its body, however it comes in, carries that provenance, so the runtime guard
   * treats the context as untrusted while it is there (issue 24).
   */
  untrustedSkill?: (skill: Skill) => boolean;
}

/** The skills context policy, with the catalog it was built from. */
export interface SkillsPolicy extends ContextPolicy {
  readonly skills: readonly Skill[];
  /** What discovery skipped or shadowed (empty when built from a catalog given in code). */
  readonly warnings: readonly SkillWarning[];
  /** The skills active in a context (activation order). */
  activeSkills(messages: readonly Message[]): string[];
  /**
   * Replaces the catalog mid-session (the caller reloaded the skill folders): the next request gets
   * an appended `<skills_changed>` message, the system prompt keeps the catalog of the start, and
   * `/name`, `skill` and `skill_file` know the new set. Returns what changed.
   */
  updateSkills(catalog: SkillCatalog): SkillsChange;
}

/**
 * Agent Skills as one context policy, over a catalog loaded beforehand (so everything here is
 * deterministic): the listing goes once into the system prompt; a person's `/name args` becomes a
 * user message carrying the body; the model's `skill` call gets a short result and the body follows
 * as an appended user message; `skill_file` reads the skill's files; a compaction re-injects the
 * active bodies. Nothing already sent is ever rewritten.
 */
export function createSkillsPolicy(catalog: SkillCatalog, options: SkillsPolicyOptions = {}): SkillsPolicy {
  const initial = catalog.skills;
  let skills: readonly Skill[] = initial;
  let byName = new Map(skills.map((skill) => [skill.name, skill]));
  let warnings = catalog.warnings;
  const changes: SkillsChange[] = [];
  const budgetChars = options.catalogBudgetChars ?? Math.floor((options.contextWindow ?? 128_000) * (options.catalogShare ?? 0.01) * 4);
  const provenanceOf = (from: readonly Skill[]): { provenance?: Provenance } => {
    const untrusted = from.filter((skill) => options.untrustedSkill?.(skill) === true).map((skill) => ({ source: `skill ${skill.name}`, trust: "workspace" as const }));
    return untrusted.length === 0 ? {} : { provenance: { untrusted } };
  };
  const modelCanLoad = initial.some(isModelInvocable);
  // The catalog of the start, always (a resumed session's as it was sent, while it still fits).
  const catalogText =
    options.startCatalog !== undefined && startCatalogStillFits(options.startCatalog, initial)
      ? options.startCatalog
      : renderSkillCatalog(initial, { budgetChars, ...(options.recentlyUsed ? { recentlyUsed: options.recentlyUsed } : {}) });
  const checkpointLimits = { maxCharsPerSkill: options.maxCheckpointCharsPerSkill ?? 20_000, maxTotalChars: options.maxCheckpointChars ?? 50_000 };

  return {
    name: skillsPolicyName,
    // A fork has the catalog and the `skill` tool in the prefix it keeps, so it gets a policy of its own
    // over the current skills to append the bodies its calls load (without one, the tool's "instructions
    // follow" was followed by nothing) — its own, so what it loads stays out of the parent. An
    // isolated child (explore) does not use skills.
    inherit: "copy",
    forChild: (child) => (child.kind === "fork" ? forkSkillsPolicy(createSkillsPolicy({ skills: [...skills], warnings: [...warnings] }, options)) : undefined),
    // After compression (-100), so a body appended here is not compacted in the same call; before the status bar (100).
    order: -50,
    // No `skill` tool when the model may load none of them (all `disable-model-invocation`); `skill_file` serves `/name` too.
    tools: initial.length === 0 ? [] : [...(modelCanLoad ? [createSkillTool(() => skills)] : []), createSkillFileTool(() => skills)],
    get skills() {
      return skills;
    },
    get warnings() {
      return warnings;
    },
    activeSkills: activeSkillNames,
    // Later changes are announced by an appended message.
    system: () => catalogText,
    updateSkills(next) {
      const change = diffSkills(skills, next.skills);
      skills = next.skills;
      byName = new Map(skills.map((skill) => [skill.name, skill]));
      warnings = next.warnings;
      if (!isEmptySkillsChange(change)) changes.push(change);
      return change;
    },
    processUserMessage(message, info) {
      const command = parseSlashCommand(message.content);
      const skill = command && byName.get(command.name);
      if (!command || !skill) return message;
      if (activeSkillNames(info.trajectory).includes(skill.name)) {
        return { ...message, content: `${message.content}\n\n(Skill '${skill.name}' is already active; its instructions are earlier in this conversation.)` };
      }
      const expanded: UserMessage = {
        ...message,
        content: `${message.content}\n\n${renderSkillBody(skill, command.args === "" ? {} : { args: command.args })}`,
        meta: { ...message.meta, derived: { kind: "skill", name: skill.name, via: "slash" }, ...provenanceOf([skill]) },
      };
      return expanded;
    },
    prepareContext(state) {
      const messages = pendingSkillMessages(state.messages, byName, state.now).map((message) => {
        const skill = byName.get(derivedOf(message, "skill")?.name ?? "");
        return skill ? { ...message, meta: { ...message.meta, ...provenanceOf([skill]) } } : message;
      });
      // Pending changes go after the bodies owed to this turn's calls; one message per reload.
      const last = state.messages.at(-1)?.meta.id ?? "start";
      const announced = changes.splice(0, changes.length).map((change, index) => {
        const message = createSkillsChangedMessage(change, { canLoad: modelCanLoad, budgetChars }, `${last}~skills-changed${index === 0 ? "" : `-${index}`}`, state.now);
        // The descriptions of an untrusted workspace's new or changed skills are its words, as in the catalog.
        return { ...message, meta: { ...message.meta, ...provenanceOf([...change.added, ...change.changed]) } };
      });
      const all = [...messages, ...announced];
      return all.length === 0 ? undefined : [{ type: "append", messages: all } satisfies ContextEdit];
    },
    ...(options.listActiveInTail
      ? {
          tail(state: TailState) {
            const active = activeSkillNames(state.trajectory);
            return active.length === 0 ? undefined : `Active skills: ${active.join(", ")} (their instructions are in the conversation).`;
          },
        }
      : {}),
    checkpoint(messages, now, id) {
      const active = activeSkillNames(messages).flatMap((name) => byName.get(name) ?? []);
      const checkpoint = createSkillsCheckpoint(active, checkpointLimits, id, now);
      return checkpoint && { ...checkpoint, meta: { ...checkpoint.meta, ...provenanceOf(active) } };
    },
  };
}

/**
 * A fork's copy: its prompt is the parent model's words, not the person's, so a `/name` in it starts
 * no skill (else the model could start a `disable-model-invocation` skill by forking with `/name`).
 */
function forkSkillsPolicy(policy: SkillsPolicy): SkillsPolicy {
  delete (policy as { processUserMessage?: unknown }).processUserMessage;
  return policy;
}

/** `/name` or `/name args`; undefined for anything else (a path like `/etc/hosts` has no skill). */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1]!, args: (match[2] ?? "").trim() } : undefined;
}

/**
 * Bodies owed to `skill` calls of the latest turn: each successful call whose skill is not active yet
 * and has no body after it. Read from the call and result messages, so a restart decides the same.
 */
function pendingSkillMessages(messages: readonly Message[], byName: ReadonlyMap<string, Skill>, now: Date): UserMessage[] {
  let turnStart = messages.length - 1;
  while (turnStart >= 0 && messages[turnStart]!.role !== "assistant") turnStart -= 1;
  if (turnStart < 0) return [];
  const assistant = messages[turnStart]!;
  if (assistant.role !== "assistant") return [];
  const calls = toolCallsOf(assistant).filter((call) => call.name === "skill");
  if (calls.length === 0) return [];
  const after = messages.slice(turnStart + 1);
  const active = new Set(activeSkillNames(messages.slice(0, turnStart)));
  const injected = new Set(activeSkillNames(after));
  const pending: UserMessage[] = [];
  for (const call of calls) {
    const result = after.find((message): message is ToolMessage => message.role === "tool" && message.toolCallId === call.id);
    const args = call.arguments as Partial<SkillArgs> | undefined;
    const skill = typeof args?.name === "string" ? byName.get(args.name) : undefined;
    if (!result || result.isError || !skill || active.has(skill.name) || injected.has(skill.name)) continue;
    injected.add(skill.name);
    const extra = typeof args?.arguments === "string" ? args.arguments : undefined;
    pending.push(createSkillMessage(skill, call.id, `${result.meta.id}~skill`, now, extra));
  }
  return pending;
}
