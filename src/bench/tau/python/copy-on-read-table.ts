import { deepCopy, type PyDict, type PyValue } from "./py-value.js";

/**
 * A top-level table of the data (`users`, `flights`, …) for one task, over a pristine table shared
 * by every task. A record is deep-copied the first time it is read for use (`get`, iteration), so a
 * task pays only for what it touches, and the data hash reuses the pristine records' cached text.
 * Tools that only look (`readValues`) see records without copying them.
 */
export class CopyOnReadTable extends Map<string, PyValue> {
  private readonly touched = new Set<string>();

  constructor(readonly origin: TableOrigin) {
    super(origin.records);
  }

  override get(key: string): PyValue | undefined {
    if (!super.has(key)) return undefined;
    if (!this.touched.has(key)) {
      this.touched.add(key);
      super.set(key, deepCopy(super.get(key) ?? null));
    }
    return super.get(key);
  }

  override set(key: string, value: PyValue): this {
    this.touched?.add(key);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.touched.delete(key);
    return super.delete(key);
  }

  isTouched(key: string): boolean {
    return this.touched.has(key);
  }

  /** A record as it is now, without copying; callers must not change it. */
  peek(key: string): PyValue | undefined {
    return super.get(key);
  }

  /** The records as they are now, without copying; callers must not change them. */
  readEntries(): IterableIterator<[string, PyValue]> {
    return super.entries();
  }

  override *entries(): MapIterator<[string, PyValue]> {
    for (const key of [...super.keys()]) yield [key, this.get(key) ?? null];
  }

  override *values(): MapIterator<PyValue> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): MapIterator<[string, PyValue]> {
    return this.entries();
  }

  override forEach(callback: (value: PyValue, key: string, map: Map<string, PyValue>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}

/** A pristine table and a cache of its records' hashable text, shared by every task's copy. */
export interface TableOrigin {
  records: PyDict;
  reprCache: Map<string, string>;
}

/** Entries of a dict for reading only: a copy-on-read table yields its records without copying. */
export function readEntries(dict: PyDict): Iterable<[string, PyValue]> {
  return dict instanceof CopyOnReadTable ? dict.readEntries() : dict.entries();
}
