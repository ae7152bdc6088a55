// Moved to src/types/model-request.ts (providers sit above context and must not import it);
// kept as a re-export while code that imports it from here is updated.
export type * from "../types/model-request.js";
