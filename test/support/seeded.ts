/**
 * A seeded generator of whole numbers (Park–Miller: exact in doubles, the same sequence on every
 * machine), for tests that build many inputs and must build the same ones each run.
 */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647);
}
