/**
 * Joins OpenRouter's streamed `reasoning_details` fragments into whole items, the way OpenRouter's
 * own clients do: fragments of one item share its `index` and `type`; `text` and `summary` arrive
 * in pieces and are concatenated, while `signature`, `data`, `id` and `format` arrive once (often
 * in a fragment of their own, after the text) and are kept as sent. A summary and an encrypted item
 * may share an index (OpenAI models), so the type is part of the key. Non-streaming responses send
 * whole items, which pass through unchanged.
 */
export class ReasoningDetailsAccumulator {
  private readonly items = new Map<string, Record<string, unknown>>();

  apply(fragments: readonly Record<string, unknown>[]): void {
    for (const fragment of fragments) {
      const key = `${String(fragment.index ?? this.items.size)}:${String(fragment.type)}`;
      const item = this.items.get(key);
      if (item === undefined) {
        this.items.set(key, { ...fragment });
        continue;
      }
      for (const [field, value] of Object.entries(fragment)) {
        const current = item[field];
        if ((field === "text" || field === "summary") && typeof value === "string") item[field] = (typeof current === "string" ? current : "") + value;
        else if (current === undefined || current === null || current === "") item[field] = value;
      }
    }
  }

  /** The whole items, in the order their first fragment came. */
  details(): Record<string, unknown>[] {
    return [...this.items.values()];
  }
}
