import type { SessionWriter } from "../session/session-writer.js";

/**
 * The run's session writer, which takes no more records once the run was cancelled (`frozen()`).
 * A cancelled execution's loop goes on to record what the cancel did to it — a tool call "interrupted
 * because the run was aborted", a step refused, the run's end as aborted — and a resume executes the
 * run again from the top, replaying the stored records: it found those where it wrote the call's
 * real outcome, and failed with a session that differs. Frozen, the session ends where a crash would
 * have left it, and the resumed run continues it byte for byte.
 */
export function freezableSessionWriter(writer: SessionWriter, frozen: () => boolean): SessionWriter {
  const unlessFrozen =
    <Args extends unknown[]>(append: (...args: Args) => void) =>
    (...args: Args): void => {
      if (!frozen()) append(...args);
    };
  return {
    get id() {
      return writer.id;
    },
    get path() {
      return writer.path;
    },
    get warnings() {
      return writer.warnings;
    },
    get loaded() {
      return writer.loaded;
    },
    get messageCount() {
      return writer.messageCount;
    },
    get requestCount() {
      return writer.requestCount;
    },
    appendMessage: unlessFrozen((message) => writer.appendMessage(message)),
    appendPrefix: unlessFrozen((prefix, reason) => writer.appendPrefix(prefix, reason)),
    recordPrefix: unlessFrozen((prefix, reason) => writer.recordPrefix(prefix, reason)),
    appendRequest: (request) => (frozen() ? writer.requestCount : writer.appendRequest(request)),
    appendUsage: unlessFrozen((index, usage) => writer.appendUsage(index, usage)),
    appendContextEdit: unlessFrozen((edit) => writer.appendContextEdit(edit)),
    appendRunStart: unlessFrozen((run) => writer.appendRunStart(run)),
    appendRunEnd: unlessFrozen((run) => writer.appendRunEnd(run)),
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}
