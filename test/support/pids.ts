// Servers run under report-pids.mjs write their pid (and any grandchild's) to a file, so a test
// can check that every process the auditor started is gone once the auditor has exited.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SERVERS, tempDir, type Run } from './cli.js';
import { isAlive } from './spawn-fixture.js';

export const REPORT_PIDS = join(SERVERS, 'report-pids.mjs');

/** Every pid a fixture reported, for a last-resort cleanup when a test fails. */
const reported = new Set<number>();

export interface Watched {
  /** The command line that runs `fixture` under report-pids.mjs. */
  command: string[];
  pidFile: string;
}

/** `node report-pids.mjs <file> <fixture> ...args`: the fixture, reporting its pids. */
export async function watched(fixture: string, args: string[] = []): Promise<Watched> {
  const pidFile = join(await tempDir(), 'pids.txt');
  return { command: ['node', REPORT_PIDS, pidFile, join(SERVERS, fixture), ...args], pidFile };
}

/**
 * Resolves once the fixture has written its pid to `pidFile`, the moment it has started. The
 * file exists a moment before its line is in it, so it is the line that is waited for.
 */
export async function waitForPid(pidFile: string): Promise<void> {
  const written = async () => /^pid=\d+$/m.test(await readFile(pidFile, 'utf8').catch(() => ''));
  while (!(await written())) await new Promise((resolve) => setTimeout(resolve, 20));
}

export async function reportedPids(pidFile: string): Promise<{ pid: number; others: number[] }> {
  const text = await readFile(pidFile, 'utf8');
  const pid = Number(/^pid=(\d+)$/m.exec(text)?.[1]);
  const others = [...text.matchAll(/^grandchild-pid=(\d+)$/gm)].map((m) => Number(m[1]));
  expect(pid, `no pid in ${pidFile}: ${text}`).toBeGreaterThan(0);
  for (const p of [pid, ...others]) reported.add(p);
  return { pid, others };
}

/** Asserts that the server (and any grandchild it reported) is gone now that the CLI exited. */
export async function expectNoneLeft(pidFile: string, grandchildren = 0): Promise<void> {
  const { pid, others } = await reportedPids(pidFile);
  expect(others).toHaveLength(grandchildren);
  for (const p of [pid, ...others]) expect(isAlive(p), `process ${p} is still running`).toBe(false);
}

/** SIGKILLs whatever a failed test left behind. */
export function killReported(): void {
  for (const pid of reported)
    if (isAlive(pid))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
  reported.clear();
}

/**
 * The checks every could-not-audit run must pass: exit 2, one clear message, no stack. How long
 * it took is no check: a bound that matters is seen in the message (the timeout it names) and in
 * what is left running (expectNoneLeft).
 */
export function expectCouldNotAudit(run: Run, message: RegExp): void {
  expect(run.code, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toBe(2);
  expect(run.stderr).toMatch(/^mcp-annotation-auditor: /);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).not.toMatch(/unexpectedly|This is a bug/);
  expect(run.stdout).toBe('');
}
