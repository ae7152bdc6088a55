import type { PyDict } from "./python/py-value.js";

/**
 * One τ-bench tool as the reference defines it: a function of the domain data and keyword
 * arguments that returns the observation text and may change the data in place.
 */
export interface TauToolImplementation {
  name: string;
  /** The reference's class name, which Python puts into argument errors (`BookReservation.invoke() …`). */
  className: string;
  /** Keyword parameters in the reference's signature order (all required). */
  parameters: readonly string[];
  /** Arguments are already bound (no missing or unknown names); may throw `PythonError`. */
  invoke(data: PyDict, args: PyDict): string;
}
