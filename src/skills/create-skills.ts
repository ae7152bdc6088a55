import { createSkillsPolicy, type SkillsPolicy, type SkillsPolicyOptions } from "./create-skills-policy.js";
import { loadSkills, type LoadSkillsOptions } from "./load-skills.js";
import type { SkillsChange } from "./skills-change.js";

export interface CreateSkillsOptions extends LoadSkillsOptions, SkillsPolicyOptions {}

/** The skills policy of discovered skills, which can look at the folders again. */
export interface LoadedSkillsPolicy extends SkillsPolicy {
  /**
   * Discovers the skills again with the same options (between two turns of a chat): what appeared,
   * changed or went away is announced to the model by an appended message on the next request.
   */
  reload(): Promise<SkillsChange>;
}

/**
 * Discovers the skills once (the catalog in the system prompt is fixed for the session, so it stays
 * byte-stable) and returns the policy for `createAgent({ context: [...] })`. Discovery warnings are
 * on `policy.warnings`, for the caller to show.
 */
export async function createSkills(options: CreateSkillsOptions = {}): Promise<LoadedSkillsPolicy> {
  const policy = createSkillsPolicy(await loadSkills(options), options);
  return Object.assign(policy, { reload: async () => policy.updateSkills(await loadSkills(options)) });
}
