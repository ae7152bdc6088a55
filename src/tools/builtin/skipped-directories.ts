/**
 * Directories that searches (glob, grep) never descend into: dependency trees and VCS or ctxkit state
 * are huge and almost never what the model is looking for, and would crowd out real results.
 */
export const skippedDirectoryNames: ReadonlySet<string> = new Set(["node_modules", ".git", ".ctxkit"]);
