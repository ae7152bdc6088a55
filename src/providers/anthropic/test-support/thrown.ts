import { CtxkitError } from "../../../types/index.js";

/** The CtxkitError `run` throws, so a test can check its code and message; anything else is rethrown. */
export function thrown(run: () => unknown): CtxkitError {
  try {
    run();
  } catch (error) {
    if (error instanceof CtxkitError) return error;
    throw error;
  }
  throw new Error("expected a throw");
}
