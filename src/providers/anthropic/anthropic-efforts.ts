/**
 * Anthropic's `output_config.effort` values (Messages API), in one place: the provider checks its
 * settings and each request with them, and the config schema and the CLI's help list them. No
 * imports, so printing help loads nothing else.
 *
 * Not sending one leaves the model's default: "high" on most models, "medium" on a few (the effort
 * page, https://platform.claude.com/docs/en/build-with-claude/effort). `xhigh` and `max` are taken by
 * some models only; the API refuses them on the others, so the answer is the API's 400, not ctxkit's.
 */
export const anthropicEfforts = ["low", "medium", "high", "xhigh", "max"] as const;

export type AnthropicEffort = (typeof anthropicEfforts)[number];
