import { derivedOf, type Message, type UserMessage } from "../../types/index.js";
import type { TargetCount } from "./derive-status-state.js";
import { isTodoStatus, type TodoItem } from "./todo-list.js";

const openTag = "<status_checkpoint>";
const closeTag = "</status_checkpoint>";

/** The counts and TODO list at a point of the trajectory, for a compaction to carry over. */
export interface StatusCheckpointData {
  version: 1;
  toolCalls: Record<string, number>;
  targetCalls: TargetCount[];
  todo: TodoItem[];
}

/**
 * The status bar derives everything from the trajectory, so a compaction that summarises old tool
 * calls away would reset the counts ("3 calls to Xfinity" becomes 0) and the TODO list. A compaction
 * keeps them by putting this harness message right after its summary: derivation starts from the
 * newest checkpoint and replays only what follows. It is stored like any trajectory message (replayed
 * byte-identically after a restart) and readable by the model. Pure.
 */
export function createStatusCheckpointMessage(data: Omit<StatusCheckpointData, "version">, id: string, now: Date): UserMessage {
  const body: StatusCheckpointData = { version: 1, toolCalls: data.toolCalls, targetCalls: data.targetCalls, todo: data.todo };
  return {
    role: "user",
    content: `${openTag}\nTool-call counts and the TODO list before the summarised part of this conversation (kept by the harness):\n${JSON.stringify(body)}\n${closeTag}`,
    meta: { id, origin: "harness", createdAt: now.toISOString(), derived: { kind: "checkpoint", policy: statusBarPolicyName, data: body } },
  };
}

/** The name the status bar's policy and its checkpoints carry. */
export const statusBarPolicyName = "status-bar";

/**
 * The newest checkpoint in the trajectory, read from the metadata the harness stored with it — never
 * from text, so tool output that imitates one changes nothing.
 */
export function findStatusCheckpoint(messages: readonly Message[]): { index: number; data: StatusCheckpointData } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const derived = derivedOf(messages[index]!, "checkpoint");
    if (derived?.policy !== statusBarPolicyName) continue;
    const data = checkCheckpointData(derived.data);
    if (data) return { index, data };
  }
  return undefined;
}

// The data comes from a session file: check it before trusting it.
function checkCheckpointData(raw: unknown): StatusCheckpointData | undefined {
  const value = raw as Partial<StatusCheckpointData> | null;
  if (value?.version !== 1 || typeof value.toolCalls !== "object" || !Array.isArray(value.targetCalls) || !Array.isArray(value.todo)) return undefined;
  const toolCalls = Object.fromEntries(Object.entries(value.toolCalls ?? {}).filter((entry): entry is [string, number] => Number.isInteger(entry[1])));
  const targetCalls = value.targetCalls.filter(
    (entry) => typeof entry?.tool === "string" && typeof entry.argument === "string" && typeof entry.value === "string" && Number.isInteger(entry.count),
  );
  const todo = value.todo.filter((item) => typeof item?.id === "string" && typeof item.content === "string" && isTodoStatus(item.status));
  return { version: 1, toolCalls, targetCalls, todo };
}
