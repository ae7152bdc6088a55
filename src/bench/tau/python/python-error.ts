/**
 * An exception the reference implementation would raise inside a tool. τ-bench turns any exception
 * into the observation `Error: <str(exception)>`, so the message is exactly Python's `str(e)`.
 */
export class PythonError extends Error {
  constructor(
    readonly pythonType: string,
    message: string,
  ) {
    super(message);
    this.name = "PythonError";
  }
}
