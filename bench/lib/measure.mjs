// Measuring one process: wall time from spawn to exit, and with `memory` its own peak RSS and
// CPU time (bench/usage.mjs, preloaded with --import).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const USAGE_HOOK = pathToFileURL(join(import.meta.dirname, '..', 'usage.mjs')).href;
const RUN_TIMEOUT_MS = 180_000;

/**
 * @typedef {{ ms: number, code: number | null, signal: string | null, rssKiB?: number,
 *   cpuMs?: number, stdout: string, stderr: string }} Sample
 * @typedef {{ memory?: boolean, keepOutput?: boolean, env?: NodeJS.ProcessEnv }} MeasureOptions
 * @typedef {(argv: string[], options?: MeasureOptions) => Promise<Sample>} Measure
 */

/**
 * A measure function for one workspace: processes run in `cwd` with `env` unless told otherwise,
 * their output goes to files in `scratch` (read back after the exit, so that reading a pipe
 * never paces the process).
 * @param {{ cwd: string, scratch: string, env: NodeJS.ProcessEnv }} place
 * @returns {Measure}
 */
export function measurer({ cwd, scratch, env: defaultEnv }) {
  const outPath = join(scratch, 'stdout.txt');
  const errPath = join(scratch, 'stderr.txt');
  const usagePath = join(scratch, 'usage.txt');
  return (argv, { memory = false, keepOutput = false, env: baseEnv = defaultEnv } = {}) => {
    rmSync(usagePath, { force: true });
    const out = openSync(outPath, 'w');
    const err = openSync(errPath, 'w');
    const env = { ...baseEnv };
    let args = argv.slice(1);
    if (memory) {
      env.BENCH_USAGE_FILE = usagePath;
      // Node's flags go right after node: after `taskset -c N node` for a pinned candidate.
      const at = argv[0] === 'taskset' ? 3 : 0;
      args = [...args.slice(0, at), '--import', USAGE_HOOK, ...args.slice(at)];
    }
    return new Promise((resolve) => {
      const start = performance.now();
      const child = spawn(argv[0] ?? '', args, { cwd, env, stdio: ['ignore', out, err] });
      closeSync(out);
      closeSync(err);
      const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
      const finish = (/** @type {number | null} */ code, /** @type {string | null} */ signal) => {
        const ms = performance.now() - start;
        clearTimeout(timer);
        /** @type {Sample} */
        const sample = { ms, code, signal, stdout: '', stderr: readFileSync(errPath, 'utf8') };
        if (keepOutput || code !== 0) sample.stdout = readFileSync(outPath, 'utf8');
        if (memory && existsSync(usagePath)) {
          const [rss, cpu] = readFileSync(usagePath, 'utf8').split(' ').map(Number);
          sample.rssKiB = rss;
          sample.cpuMs = cpu;
        }
        resolve(sample);
      };
      child.once('error', (error) => finish(null, `spawn failed: ${error.message}`));
      child.once('exit', finish);
    });
  };
}
