import type { DBOS as DbosType, DBOSClient as DbosClientType } from "@dbos-inc/dbos-sdk";
import { ConfigError } from "../types/index.js";

export interface DbosModule {
  DBOS: typeof DbosType;
  DBOSClient: typeof DbosClientType;
  /** Re-enqueues the pending workflows of other executors (DBOS recovers only its own at launch). */
  recoverPendingWorkflows(executorIds: string[]): Promise<unknown[]>;
}

/** DBOS, loaded on first use: an optional peer, needed only by workers and `submit`. */
export async function loadDbos(): Promise<DbosModule> {
  try {
    // CommonJS packages: their exports are on the default export.
    const sdk = (await import("@dbos-inc/dbos-sdk")).default as unknown as { DBOS: typeof DbosType; DBOSClient: typeof DbosClientType };
    // Not on DBOS's public surface: the executor's own recovery, which takes any executor id.
    const internal = (await import("@dbos-inc/dbos-sdk/internal/dbos")).default as { getExecutor(): { recoverPendingWorkflows(ids: string[]): Promise<unknown[]> } };
    return { DBOS: sdk.DBOS, DBOSClient: sdk.DBOSClient, recoverPendingWorkflows: (ids) => internal.getExecutor().recoverPendingWorkflows(ids) };
  } catch (error) {
    throw new ConfigError("dependency_missing", "Durable runs need the DBOS SDK: npm install @dbos-inc/dbos-sdk pg", { cause: error });
  }
}
