import type { ProviderEvent } from "../../provider.js";

export async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const result: ProviderEvent[] = [];
  for await (const event of events) result.push(event);
  return result;
}

export function terminal(events: ProviderEvent[]): ProviderEvent {
  const last = events[events.length - 1];
  if (last === undefined) throw new Error("no events");
  return last;
}
