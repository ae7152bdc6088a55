import type { DBOS as DbosType, DBOSClient as DbosClientType } from "@dbos-inc/dbos-sdk";
import { ConfigError } from "../types/index.js";

export interface DbosModule {
  DBOS: typeof DbosType;
  DBOSClient: typeof DbosClientType;
  /** Re-enqueues the pending workflows of other executors (DBOS recovers only its own at launch). */
  recoverPendingWorkflows(executorIds: string[]): Promise<unknown[]>;
  /** Creates or migrates DBOS's tables (schema dbos) without a word: DBOS.migrate reports on stdout through a console logger of its own. */
  migrateSystemDatabase(connectionString: string): Promise<void>;
}

const silent = { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined };

/** DBOS, loaded on first use: an optional peer, needed only by workers and `submit`. */
export async function loadDbos(): Promise<DbosModule> {
  try {
    // CommonJS packages: their exports are on the default export.
    const sdk = (await import("@dbos-inc/dbos-sdk")).default as unknown as { DBOS: typeof DbosType; DBOSClient: typeof DbosClientType };
    // Not on DBOS's public surface: the executor's own recovery, which takes any executor id.
    const internal = (await import("@dbos-inc/dbos-sdk/internal/dbos")).default as { getExecutor(): { recoverPendingWorkflows(ids: string[]): Promise<unknown[]> } };
    // Not public either: DBOS.migrate's own body, given a logger that says nothing (library code never prints).
    const systemDatabase = (await import("@dbos-inc/dbos-sdk/internal/system_database")).default as unknown as { migrateSystemDatabase(url: string, logger: typeof silent): Promise<void> };
    return {
      DBOS: sdk.DBOS,
      DBOSClient: sdk.DBOSClient,
      recoverPendingWorkflows: (ids) => internal.getExecutor().recoverPendingWorkflows(ids),
      migrateSystemDatabase: (url) => systemDatabase.migrateSystemDatabase(url, silent),
    };
  } catch (error) {
    throw new ConfigError("dependency_missing", "Durable runs need the DBOS SDK: npm install @dbos-inc/dbos-sdk pg", { cause: error });
  }
}
