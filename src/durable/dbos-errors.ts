/** DBOS's error for a step or a wait of a workflow cancelled meanwhile (DBOSWorkflowCancelledError). */
export function isWorkflowCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === "DBOSWorkflowCancelledError" || (error as { dbosErrorCode?: unknown }).dbosErrorCode === 24);
}

/** DBOS's error for an execution that no longer owns its workflow: another one runs it now (DBOSWorkflowConflictError). */
export function isOwnershipLost(error: unknown): boolean {
  return error instanceof Error && (error.name === "DBOSWorkflowConflictError" || (error as { dbosErrorCode?: unknown }).dbosErrorCode === 5);
}
