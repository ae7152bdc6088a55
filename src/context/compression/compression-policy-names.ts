/**
 * The selectable compression policies: the six strategies of the seed's experiment 2-10 and
 * `ctxkit`, the layered default (write-time budget and noise removal, clearing of old results,
 * archival summaries, full compaction as the last resort). A file of its own so that the CLI's
 * option table can name them without loading the policies.
 */
export const compressionPolicyNames = ["none", "individual", "combined", "context-aware", "context-aware-citations", "windowed", "ctxkit"] as const;

export type CompressionPolicyName = (typeof compressionPolicyNames)[number];
