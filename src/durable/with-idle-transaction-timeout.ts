/**
 * DBOS sets `idle_in_transaction_session_timeout` on each new connection of its own pools with a query
 * it queues from the pool's `connect` event, ahead of the borrower's first query. pg 8 warns about
 * two queries queued on one client ("Calling client.query() when the client is already executing a
 * query is deprecated"), so every `ctxkit worker` printed a DeprecationWarning it could do nothing
 * about. Sent as a startup option in the connection string instead, the server applies the same
 * setting when the connection opens, and DBOS (which checks the string's `options` for it) queues
 * nothing.
 */
export const IDLE_TRANSACTION_TIMEOUT_MS = 60_000; // DBOS's own default (DEFAULT_IDLE_TRANSACTION_TIMEOUT_MS)

/** The connection string with the idle-transaction timeout as a startup option, unless it sets one already. */
export function withIdleTransactionTimeout(connectionString: string, timeoutMs = IDLE_TRANSACTION_TIMEOUT_MS): string {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return connectionString; // not a URL (a libpq key=value string, say): left to DBOS as it is
  }
  const options = url.searchParams.get("options") ?? "";
  if (options.includes("idle_in_transaction_session_timeout")) return connectionString;
  url.searchParams.set("options", `${options} -c idle_in_transaction_session_timeout=${Math.round(timeoutMs)}`.trim());
  return url.toString();
}
