// Statistics over rounds, and the formatting every report section shares. Pure.

/** @param {number[]} xs */
export function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The median of per-round ratios a/b: each ratio compares two processes run in the same round.
 * @param {Map<string, number>[]} rounds @param {string} a @param {string} b
 */
export function pairedRatio(rounds, a, b) {
  return median(
    rounds.filter((r) => r.has(a) && r.has(b)).map((r) => (r.get(a) ?? 0) / (r.get(b) ?? 1)),
  );
}

/** The median of per-round differences a − b. @param {Map<string, number>[]} rounds @param {string} a @param {string} b */
export function pairedDiff(rounds, a, b) {
  return median(
    rounds.filter((r) => r.has(a) && r.has(b)).map((r) => (r.get(a) ?? 0) - (r.get(b) ?? 0)),
  );
}

/**
 * The items in an order of their own for this round: a Fisher-Yates shuffle driven by a small
 * generator seeded with the round (mulberry32), so that a run can be repeated as it was.
 * @template T @param {T[]} items @param {number} round @returns {T[]}
 */
export function shuffled(items, round) {
  let seed = (round + 1) * 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const ms = (/** @type {number} */ x) => (Number.isFinite(x) ? `${Math.round(x)}` : 'n/a');
export const ratio = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
export const ratio3 = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
export const mib = (/** @type {number | undefined} */ kib) =>
  kib === undefined || !Number.isFinite(kib) ? 'n/a' : (kib / 1024).toFixed(1);
export const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
export const int = (/** @type {number} */ n) => n.toLocaleString('en-US');
export const verdict = (/** @type {boolean} */ pass) => (pass ? 'PASS' : 'FAIL');

/** A markdown table, columns padded. @param {string[]} header @param {string[][]} rows */
export function table(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => (r[i] ?? '').length)));
  const line = (/** @type {string[]} */ r) =>
    `| ${r.map((c, i) => (c ?? '').padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)]
    .join('\n')
    .concat('\n');
}

/** The end of a process's output, on one line, for a note. @param {string} text */
export function lastLines(text, n = 3) {
  return text.trim().split('\n').slice(-n).join(' / ').slice(0, 300);
}
