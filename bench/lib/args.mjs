// The benchmark's command line: what each option takes, and its refusals. Pure: it reads only
// the argv it is given, and throws a UsageError that run.mjs prints with the usage.
import { parseArgs } from 'node:util';

export const HELP = `Usage: npm run bench [-- options]

  --runs N            timed rounds per server (default 11; fewer when a round is slow, see --budget)
  --warmups N         warm-up rounds, which also measure peak memory (default 2)
  --budget SECONDS    time the timed rounds of one server may take (default 60); the round count
                      drops to fit, but never below 3
  --only LIST         comma-separated subset: example,filesystem,raw-notes,many-100,many-1000,
                      many-10000,four-servers,concurrency,cold
  --dist DIR          measure the build in DIR (node scripts/build.mjs --outdir DIR) instead of dist/
  --baseline DIR      also run ours and the action from the build in DIR (an earlier commit's dist/)
                      in every round, and compare each row's ratios with that build's
  --skip-inspector    do not install or run the MCP Inspector
  --profile           also CPU-profile \`check\`, per phase and per function, and time when each
                      candidate starts its server
  -h, --help          this help`;

/** A command line the benchmark refuses: exit 2 with the message and the usage. */
export class UsageError extends Error {}

/**
 * @typedef {{ runs: number, warmups: number, budgetMs: number, only: Set<string> | undefined,
 *   dist: string | undefined, baseline: string | undefined, skipInspector: boolean,
 *   profile: boolean, help: boolean }} Options
 */

/**
 * The options of one benchmark run, from its arguments (process.argv.slice(2)).
 * @param {string[]} args
 * @returns {Options}
 */
export function parseBenchArgs(args) {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        runs: { type: 'string', default: '11' },
        warmups: { type: 'string', default: '2' },
        budget: { type: 'string', default: '60' },
        only: { type: 'string' },
        dist: { type: 'string' },
        baseline: { type: 'string' },
        'skip-inspector': { type: 'boolean', default: false },
        profile: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    // parseArgs names the option it refused; the usage says what it takes.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return {
    runs: positiveInt(values.runs, '--runs'),
    warmups: positiveInt(values.warmups, '--warmups'),
    budgetMs: positiveInt(values.budget, '--budget') * 1000,
    only: values.only ? new Set(values.only.split(',').map((s) => s.trim())) : undefined,
    dist: values.dist,
    baseline: values.baseline,
    skipInspector: values['skip-inspector'] === true,
    profile: values.profile === true,
    help: values.help === true,
  };
}

/** @param {string | undefined} text @param {string} flag */
function positiveInt(text, flag) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a whole number of at least 1, not "${text}".`);
  return n;
}

/**
 * Whether a suite or server id runs in this run: every one without --only.
 * @param {Options} opts @param {string} id
 */
export const selected = (opts, id) => !opts.only || opts.only.has(id);
