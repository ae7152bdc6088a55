/**
 * Counts what an importer read but has no internal equivalent for, so the report can say what it
 * left out instead of dropping it silently. Vendors add record types often; a count per type keeps
 * the note short whatever the file size.
 */
export class SkippedRecords {
  private readonly counts = new Map<string, number>();

  add(type: string): void {
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
  }

  get size(): number {
    return this.counts.size;
  }

  toRecord(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  /** One sentence naming each skipped type with its count (`web_search_call ×7`), or undefined when nothing was skipped. */
  note(what: string, consequence: string): string | undefined {
    if (this.counts.size === 0) return undefined;
    const list = [...this.counts].map(([type, count]) => `${type} ×${count}`).join(", ");
    return `Skipped ${what} with no equivalent here (${list}); ${consequence}.`;
  }
}
