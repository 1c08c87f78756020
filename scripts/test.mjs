// npm test: the checks that do not depend on one another run side by side, since none of them
// keeps both cores busy for long: tsc and eslint (one program), prettier, build:check, and the vitest projects
// (unit, e2e, oracle; SKIP_ORACLES=1 skips the oracles). Vitest prints as it goes; the other
// checks are quiet until the end, where each one's output is shown if it failed, then one line
// per check. The exit code is 1 when any check failed. Arguments go to vitest
// (npm test -- --project unit).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/**
 * The checks besides vitest. Types and eslint share one TypeScript program
 * (scripts/typed-checks.mjs: npm run typecheck's and npm run lint's eslint, some 12 s of CPU less
 * on a fresh clone than each building its own); prettier is the rest of npm run lint. Each keeps
 * what it learnt in node_modules/.cache, so a second run checks again only what changed (a fresh
 * clone, as CI is, starts with none).
 */
const CHECKS = [
  ['typecheck and lint (tsc, eslint)', process.execPath, ['scripts/typed-checks.mjs']],
  ['lint (prettier)', bin('prettier'), ['--check', '--cache', '.']],
  ['build:check', process.execPath, ['scripts/build.mjs', '--check']],
];

/**
 * The environment of every check: this one without NODE_EXTRA_CA_CERTS. Where it is set (some
 * CI images set it), each Node process reads and parses that certificate bundle as it starts,
 * some 40 ms of CPU, and the suite starts over a thousand Node processes (the CLI, the action,
 * servers, clients, vitest's workers). No test makes a TLS connection: every server, API and
 * proxy in them is local plain HTTP.
 */
const ENV = { ...process.env };
delete ENV.NODE_EXTRA_CA_CERTS;

/** Runs one command; its output is kept (quiet) or passed through (the vitest run). */
function run(name, command, args, quiet) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: ENV,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    const done = (code, why) =>
      resolve({
        name,
        code,
        why,
        output: Buffer.concat(output).toString(),
        ms: Date.now() - started,
      });
    child.on('error', (error) => done(1, error.message));
    child.on('close', (code, signal) => done(code ?? 1, signal ? `killed by ${signal}` : ''));
  });
}

const results = await Promise.all([
  ...CHECKS.map(([name, command, args]) => run(name, command, args, true)),
  run('vitest', bin('vitest'), ['run', ...process.argv.slice(2)], false),
]);

// Vitest's own output is above; each other check that failed shows what it printed.
for (const result of results.filter((r) => r.code !== 0 && r.name !== 'vitest'))
  process.stdout.write(
    `\n── ${result.name} failed ──\n${result.output.trimEnd() || '(it printed nothing)'}\n`,
  );
process.stdout.write('\n');
for (const { name, code, why, ms } of results) {
  const seconds = Math.round(ms / 100) / 10;
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code}${why ? `, ${why}` : ''})`;
  process.stdout.write(`${name}: ${verdict} [${seconds} s]\n`);
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
