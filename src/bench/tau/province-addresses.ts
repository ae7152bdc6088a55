import type { PyDict, PyValue } from "./python/py-value.js";

/**
 * The τ-bench data before commit 404f33e (2025-01-16) called the users' address field `province`;
 * it is `state` now, at the same position. The published GPT-4o airline dialogues were recorded on
 * the old data, so their `get_user_details` outputs and gold data hashes say `province`. Replaying
 * them byte for byte needs the old name back; this is the only difference between the versions.
 */
export function renameStateToProvince(file: string, records: PyDict): PyDict {
  if (file !== "users") return records;
  for (const user of records.values()) {
    const address = user instanceof Map ? user.get("address") : undefined;
    if (address instanceof Map && address.has("state")) {
      const renamed = new Map<string, PyValue>([...address].map(([key, value]) => [key === "state" ? "province" : key, value]));
      (user as PyDict).set("address", renamed);
    }
  }
  return records;
}
