/** One Agent Skill (the agentskills.io format): a folder holding `SKILL.md` and the files it refers to. */
export interface Skill {
  /** Lowercase letters, digits and single hyphens; equal to the folder's name. */
  name: string;
  /** Says what the skill does and when to use it (the spec allows 1024 characters; a longer one loads with a warning). */
  description: string;
  /** Absolute path of the `SKILL.md` file. */
  path: string;
  /** Absolute path of the skill's folder (what `skill_file` is confined to). */
  directory: string;
  /** The Markdown after the frontmatter: the instructions loaded on activation. */
  body: string;
  /** The frontmatter's `allowed-tools`, when given. */
  allowedTools?: string[];
  /** The frontmatter's `metadata` (string values only). */
  metadata?: Record<string, string>;
  /**
   * The frontmatter's `disable-model-invocation: true` (Claude Code's field, common in shared skills):
   * only the person starts the skill, by typing `/name`. It is left out of the model's catalog and the
   * `skill` tool refuses it.
   */
  disableModelInvocation?: true;
}

/** Whether the model may see and load a skill (it is in the catalog and the `skill` tool accepts it). */
export function isModelInvocable(skill: Skill): boolean {
  return skill.disableModelInvocation !== true;
}

export type SkillWarningCode =
  | "skill_file_too_large"
  | "skill_frontmatter_missing"
  | "skill_frontmatter_invalid"
  | "skill_frontmatter_repaired"
  | "skill_name_missing"
  | "skill_name_invalid"
  | "skill_name_mismatch"
  | "skill_description_missing"
  | "skill_description_too_long"
  | "skill_shadowed"
  | "skill_directory_unreadable"
  | "skill_limit_reached"
  | "skill_outside_root";

/** Why a skill file was skipped or shadowed, or what is wrong with one that loaded: data for the caller to show, never an exception. */
export interface SkillWarning {
  code: SkillWarningCode;
  /** The file or folder the warning is about. */
  path: string;
  message: string;
}

/** The skills found at session start, first one by name winning, plus what was skipped and why. */
export interface SkillCatalog {
  /** Sorted by name. */
  skills: Skill[];
  warnings: SkillWarning[];
}
