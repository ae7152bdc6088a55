import { createSkillsPolicy, type SkillsPolicy, type SkillsPolicyOptions } from "./create-skills-policy.js";
import { loadSkills, type LoadSkillsOptions } from "./load-skills.js";

export interface CreateSkillsOptions extends LoadSkillsOptions, SkillsPolicyOptions {}

/**
 * Discovers the skills once (the catalog is fixed for the session, so the system prompt stays
 * byte-stable) and returns the policy for `createAgent({ context: [...] })`. Discovery warnings are
 * on `policy.warnings`, for the caller to show.
 */
export async function createSkills(options: CreateSkillsOptions = {}): Promise<SkillsPolicy> {
  return createSkillsPolicy(await loadSkills(options), options);
}
