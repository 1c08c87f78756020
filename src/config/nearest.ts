/*
 * "Did you mean": the known word a typo was probably meant to be. Kept apart from the config file
 * so that the CLI's argument parser, which runs before the server under audit starts, loads
 * nothing heavy.
 */

/** The edit distance between two words (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] as number;
}

/** The known key `key` was probably meant to be: the same but for case, or within two edits. */
export function nearestKey(key: string, known: string[], caseOnly: boolean): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same !== undefined || caseOnly) return same;
  let best: { key: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(lower, k.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: k, distance };
  }
  return best?.key;
}
