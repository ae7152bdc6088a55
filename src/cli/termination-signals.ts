/** What ends ctxkit from outside besides Ctrl-C (SIGINT, which each command handles as an abort). */
const terminationSignals = ["SIGTERM", "SIGHUP"] as const;
/** Their numbers, the same on every platform Node runs on (node:os's table costs its loading at every start). */
const signalNumbers = { SIGTERM: 15, SIGHUP: 1 } as const satisfies Record<(typeof terminationSignals)[number], number>;

/**
 * Kills the running bash commands' processes when ctxkit is told to end. Each command runs in a
 * session of its own (so its kill can reach everything it started), which also means a closed
 * terminal (SIGHUP) or a `kill` of ctxkit (SIGTERM) no longer reaches it, and a process ended by a
 * signal emits no `exit` for the exit hook. Then exits with the shell's code for that signal
 * (128 + its number: 143, 129), unless another handler (`ctxkit view` shuts down on SIGTERM) takes
 * the signal over. Installed by the binary (bin/ctxkit.js), never by `main`, which tests run in-process.
 */
export function installTerminationHandlers(): void {
  for (const signal of terminationSignals) {
    process.on(signal, () => {
      // Imported here, not at start-up: a command that runs has loaded it already (the same
      // instance, with its running commands), and with none running there is nothing to kill.
      void import("../tools/builtin/command-processes.js").then(
        ({ killRunningCommands }) => killRunningCommands(),
        () => undefined,
      ).finally(() => {
        if (process.listenerCount(signal) <= 1) process.exit(128 + signalNumbers[signal]);
      });
    });
  }
}
