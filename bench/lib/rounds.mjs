// Rounds: warm-ups (which measure memory and CPU too), then interleaved timed rounds, each in
// an order of its own. Returns every sample; the report makes the medians.
import { lastLines, shuffled } from './stats.mjs';

/**
 * @typedef {import('./candidates.mjs').Candidate} Candidate
 * @typedef {{ id: string, times: number[], rss: number[], cpu: number[], codes: Set<number | null>,
 *   warmupMs: number[], failed?: string, failedMs?: number, dropped?: string, tools?: number }} Result
 * @typedef {{ results: Map<string, Result>, rounds: Map<string, number>[], runs: number,
 *   warmups: number }} Rounds
 * @typedef {{ measure: import('./measure.mjs').Measure, warmups: number, runs: number,
 *   budgetMs: number }} Pace
 */

/**
 * Runs one sample of a candidate and files it in its result; false when the run failed.
 * @param {Pace} pace @param {Candidate} c @param {Result} r @param {boolean} warmup
 */
async function runOnce(pace, c, r, warmup) {
  c.prepare?.();
  const sample = await pace.measure(c.argv, { memory: warmup, keepOutput: warmup, env: c.env });
  r.codes.add(sample.code);
  if (warmup) r.warmupMs.push(sample.ms);
  if (!c.ok(sample.code, sample.stdout)) {
    r.failed = `exit ${sample.code ?? sample.signal}: ${lastLines(sample.stderr || sample.stdout)}`;
    r.failedMs = sample.ms;
    return { ok: false, ms: sample.ms };
  }
  if (warmup) {
    if (sample.rssKiB !== undefined) r.rss.push(sample.rssKiB);
    if (sample.cpuMs !== undefined) r.cpu.push(sample.cpuMs);
    if (c.count) r.tools = c.count(sample.stdout);
  } else r.times.push(sample.ms);
  return { ok: true, ms: sample.ms };
}

/**
 * Warm-ups, then timed rounds of every candidate. When a round is slow the count drops to fit
 * the budget, never below 3 (2 when a single round takes more than half the budget), and the
 * reference-only candidates sit out.
 * @param {Pace} pace @param {string} title @param {Candidate[]} candidates
 * @returns {Promise<Rounds>}
 */
export async function runRounds(pace, title, candidates) {
  /** @type {Map<string, Result>} */
  const results = new Map(
    candidates.map((c) => [
      c.id,
      { id: c.id, times: [], rss: [], cpu: [], codes: new Set(), warmupMs: [] },
    ]),
  );
  const resultOf = (/** @type {Candidate} */ c) => /** @type {Result} */ (results.get(c.id));
  const live = () => candidates.filter((c) => !resultOf(c).failed && !resultOf(c).dropped);
  const slow = (/** @type {number} */ cost) => cost > pace.budgetMs / 4;
  let warmups = 0;
  let roundCost = 0;
  for (let w = 0; w < pace.warmups; w += 1) {
    roundCost = 0;
    for (const c of live()) {
      if (c.reference && slow(roundCost)) {
        resultOf(c).dropped = 'not run: this server is slow to audit';
        continue;
      }
      roundCost += (await runOnce(pace, c, resultOf(c), true)).ms;
    }
    warmups += 1;
    process.stdout.write(
      `  ${title}: warm-up ${warmups} took ${(roundCost / 1000).toFixed(1)} s\n`,
    );
    if (slow(roundCost)) break; // slow: one warm-up is enough
  }
  if (slow(roundCost))
    for (const c of live())
      if (c.reference) {
        resultOf(c).dropped = 'left out of the timed rounds, which are slow here';
        roundCost -= resultOf(c).warmupMs.at(-1) ?? 0;
      }
  const minRuns = roundCost > pace.budgetMs / 2 ? 2 : 3;
  const runs = Math.min(
    pace.runs,
    Math.max(minRuns, Math.floor(pace.budgetMs / Math.max(roundCost, 1))),
  );
  /** @type {Map<string, number>[]} */
  const rounds = [];
  for (let round = 0; round < runs; round += 1) {
    /** @type {Map<string, number>} */
    const times = new Map();
    // A new order each round, so that drift, and what the one before leaves behind (its server
    // still exiting, its pinned CPU), hit every candidate alike: rotating one order would keep
    // each candidate after the same neighbour every round.
    for (const c of shuffled(live(), round)) {
      const sample = await runOnce(pace, c, resultOf(c), false);
      if (sample.ok) times.set(c.id, sample.ms);
    }
    rounds.push(times);
  }
  return { results, rounds, runs, warmups };
}
