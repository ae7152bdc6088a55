import type { Provider } from "../../providers/provider.js";
import type { ModelRequest } from "../../types/index.js";

/** A test's one hang: `reached` is called when the hanging call starts. */
export interface HangOnce {
  once: boolean;
  reached: () => void;
}

/**
 * The provider, except that the first request `at` picks never answers: the call in flight when a test
 * stops the worker, as a crash would leave it. Later matching requests (the recovered run's) are answered.
 */
export function hangOnce(provider: Provider, at: (request: ModelRequest) => boolean, hang: HangOnce): Provider {
  return {
    specificationVersion: provider.specificationVersion,
    name: provider.name,
    model: provider.model,
    serialize: (request) => provider.serialize(request),
    async *stream(request, signal) {
      if (hang.once && at(request)) {
        hang.once = false;
        hang.reached();
        await new Promise(() => undefined);
      }
      yield* provider.stream(request, signal);
    },
  };
}
