// Every module that builds zod schemas imports this one: zod's configuration comes first.
import './zod.js';

/**
 * A value built on first use. Building zod schemas costs CPU at start-up, while the server under
 * audit boots on the same cores, and most runs never use most of them.
 */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
