/**
 * A write ctxkit itself made to one of its own files: the bytes it appended (a session's records) or
 * the whole content it put there (notes, chat history, a blob), or that it removed the file.
 */
export type HarnessWrite = { path: string; appended: Uint8Array } | { path: string; content: Uint8Array } | { path: string; removed: true };

type Listener = (write: HarnessWrite) => void;

// Process-wide on purpose: a write this process made is never a bash command's, whichever agent,
// sub-agent or store made it, and the guard around a bash call must not undo it (see protected-files.ts).
const listeners = new Set<Listener>();

/**
 * Tells the bash calls' guard, if one is running, what ctxkit just wrote: the guard then expects
 * those bytes instead of putting the file back as it was before the call. A command cannot call this:
 * only code in this process can, so a command's own writes to the same files are still undone.
 */
export function noteHarnessWrite(write: HarnessWrite): void {
  for (const listener of listeners) listener(write);
}

/** Called with every write noted until the returned function is called. */
export function watchHarnessWrites(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
