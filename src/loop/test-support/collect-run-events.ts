import type { AgentEvent } from "../../types/index.js";
import type { Agent } from "../create-agent.js";

/** Every event of one `agent.run(text)`, in order: for tests that assert on a whole turn. */
export async function collectRunEvents(agent: Pick<Agent, "run">, text: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of agent.run(text)) events.push(event);
  return events;
}
