// Several servers of a config file audited at once: the same output, report and class list as
// one after another, the overlap proved by the order of what each server records (never by
// timing), failures reported as a sequential run would, and every process gone at the end.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/config/inputs.js';
import { startPortKey } from '../../src/server/http-start.js';
import { CLI, freePort, runCli, SERVERS, tempDir, writeConfig, type Run } from '../support/cli.js';
import {
  expectCouldNotAudit,
  expectNoneLeft,
  reportedPids,
  waitForPid,
  watched,
} from '../support/pids.js';
import { killAllFixtures, spawnFixture, waitUntilGone } from '../support/spawn-fixture.js';

interface Slow {
  name: string;
  after?: string;
}

/** A config of slow-boot servers that record into one journal, each under report-pids.mjs. */
async function slowServers(servers: (Slow | { name: string; fixture: string })[]) {
  const dir = await tempDir();
  const journal = join(dir, 'journal');
  const pidFiles: string[] = [];
  const entries: Record<string, unknown> = {};
  for (const server of servers) {
    const args =
      'fixture' in server
        ? []
        : [
            '--journal',
            journal,
            '--name',
            server.name,
            ...(server.after ? ['--after', server.after] : []),
          ];
    const w = await watched('fixture' in server ? server.fixture : 'slow-boot.mjs', args);
    pidFiles.push(w.pidFile);
    const [command, ...rest] = w.command as [string, ...string[]];
    entries[server.name] = { command, args: rest, env: { SLOW_BOOT_WAIT_MS: null } };
  }
  const config = await writeConfig(dir, { servers: entries });
  return { dir, journal, config, pidFiles };
}

/**
 * Runs the CLI with an empty journal. `waitMs` bounds how long a server waits for the one it
 * follows: short where nothing can overlap, long where only a concurrent audit can answer it.
 */
async function audit(
  setup: { journal: string; dir: string },
  args: string[],
  waitMs: number,
): Promise<{ run: Run; journal: string[] }> {
  await writeFile(setup.journal, '');
  const run = await runCli(args, {
    cwd: setup.dir,
    env: { ...process.env, SLOW_BOOT_WAIT_MS: String(waitMs) },
  });
  const journal = (await readFile(setup.journal, 'utf8')).split('\n').filter(Boolean);
  return { run, journal };
}

/** The most servers between their start and their answer at any point of the journal. */
function mostAtOnce(journal: string[]): number {
  let running = 0;
  let most = 0;
  for (const line of journal) {
    running += line.startsWith('start ') ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

// a answers only once b has, and b only once a has started: only an audit that runs them at once
// lets a answer before its bound, and then both were running when b answered. c comes after
// both, so with two at a time it starts only once a slot is free.
const ABC: Slow[] = [
  { name: 'a', after: 'listed b' },
  { name: 'b', after: 'start a' },
  { name: 'c', after: 'listed b' },
];

describe('servers of a config file audited at once', () => {
  // That update, check and the text outputs match too runs in memory (test/unit/concurrency.test.ts).
  it('overlap with --concurrency 2, never with 1, and give the same report', async () => {
    const setup = await slowServers(ABC);
    const reports: Record<string, string> = {};
    for (const [concurrency, waitMs] of [
      ['1', 200],
      ['2', 25_000],
    ] as const) {
      const flags = ['--config', setup.config, '--concurrency', concurrency];
      const list = await audit(setup, ['list', '--format', 'json', ...flags], waitMs);
      expect(list.run.code, list.run.stderr).toBe(0);
      if (concurrency === '1') {
        expect(list.journal).toEqual([
          'start a',
          'listed a',
          'start b',
          'listed b',
          'start c',
          'listed c',
        ]);
      } else {
        // b started before a's listing ended, and a answered only after b had.
        expect(list.journal.indexOf('start b')).toBeLessThan(list.journal.indexOf('listed a'));
        expect(list.journal.indexOf('listed b')).toBeLessThan(list.journal.indexOf('listed a'));
        expect(mostAtOnce(list.journal)).toBe(2);
      }
      reports[concurrency] = list.run.stdout;
    }
    expect(reports['2']).toBe(reports['1']);
    // In configuration order, though b finished first.
    expect(
      (JSON.parse(reports['2'] ?? '{}') as { servers: { server: string }[] }).servers.map(
        (s) => s.server,
      ),
    ).toEqual(['a', 'b', 'c']);
    for (const pidFile of setup.pidFiles) await expectNoneLeft(pidFile);
  });

  it('take concurrency from the config file', async () => {
    const setup = await slowServers(ABC.slice(0, 2));
    const config = JSON.parse(await readFile(setup.config, 'utf8')) as Record<string, unknown>;
    await writeConfig(setup.dir, { ...config, concurrency: 1 });
    const sequential = await audit(setup, ['list', '--config', setup.config], 200);
    expect(sequential.run.code, sequential.run.stderr).toBe(0);
    expect(sequential.journal).toEqual(['start a', 'listed a', 'start b', 'listed b']);
    // The command line overrides the file.
    const atOnce = await audit(
      setup,
      ['list', '--config', setup.config, '--concurrency', '2'],
      25_000,
    );
    expect(atOnce.journal.indexOf('start b')).toBeLessThan(atOnce.journal.indexOf('listed a'));
  });

  it('a failing server: the others are still audited and stopped; its error is what a sequential run says', async () => {
    const setup = await slowServers([
      { name: 'a', after: 'listed b' },
      { name: 'broken', fixture: 'exit-at-once.mjs' },
      { name: 'b' },
    ]);
    const atOnce = await audit(
      setup,
      ['list', '--config', setup.config, '--concurrency', '3'],
      25_000,
    );
    const message = /Server "broken": .*exited with code 3/;
    expectCouldNotAudit(atOnce.run, message);
    // a and b were audited to the end, though broken had failed long before.
    expect(atOnce.journal).toEqual(expect.arrayContaining(['listed a', 'listed b']));
    for (const pidFile of setup.pidFiles) await expectNoneLeft(pidFile);
    const sequential = await audit(
      setup,
      ['list', '--config', setup.config, '--concurrency', '1'],
      200,
    );
    expectCouldNotAudit(sequential.run, message);
    expect(atOnce.run.stderr).toBe(sequential.run.stderr);
    // One after another, as before: nothing after the failing server starts.
    expect(sequential.journal).toEqual(['start a', 'listed a']);
  });

  it('two failures: the first in configuration order is reported, though the later one failed first', async () => {
    const setup = await slowServers([
      { name: 'stalled', fixture: 'never-answers.mjs' },
      { name: 'broken', fixture: 'exit-at-once.mjs' },
    ]);
    const run = await runCli(
      ['list', '--config', setup.config, '--start-timeout', '1', '--concurrency', '2'],
      {
        cwd: setup.dir,
      },
    );
    expectCouldNotAudit(run, /^mcp-annotation-auditor: Server "stalled": /);
    expect(run.stderr).not.toMatch(/broken/);
    for (const pidFile of setup.pidFiles) await expectNoneLeft(pidFile);
  });

  it('interrupted (SIGINT, Ctrl-C) while several servers boot: every one of them goes', async () => {
    const setup = await slowServers([
      { name: 'a', after: 'listed never' },
      { name: 'b', after: 'listed never' },
    ]);
    await writeFile(setup.journal, '');
    const child = spawn(
      process.execPath,
      [CLI, 'list', '--config', setup.config, '--concurrency', '2'],
      {
        cwd: setup.dir,
        env: { ...process.env, SLOW_BOOT_WAIT_MS: '25000' },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Both servers have started: their pids are recorded.
    for (const file of setup.pidFiles) await waitForPid(file);
    const pids = await Promise.all(
      setup.pidFiles.map(async (file) => (await reportedPids(file)).pid),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    for (const pid of pids) await waitUntilGone(pid);
  });

  it('HTTP servers whose start commands share a port take turns', async () => {
    const port = await freePort();
    const dir = await tempDir();
    const url = `http://127.0.0.1:${port}/mcp`;
    const start = {
      command: 'node',
      args: [join(SERVERS, 'http-server.mjs'), '--port', String(port)],
    };
    const config = await writeConfig(dir, {
      servers: {
        one: { url, start },
        two: { url: `http://localhost:${port}/mcp`, start },
      },
    });
    const run = await runCli(
      ['list', '--format', 'json', '--config', config, '--concurrency', '2'],
      {
        cwd: dir,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { tools: { server: string; name: string }[] };
    expect(report.tools.map((t) => t.server)).toEqual(['one', 'one', 'one', 'two', 'two', 'two']);
  });

  it('still refuses a URL that answers before its start command runs', async () => {
    const dir = await tempDir();
    // The server already answering binds port 0 and says which port it got: no race for it.
    const served = spawnFixture('http-server.mjs', ['--port', '0']);
    try {
      const [, port] = await served.waitForStderr(/listening on http:\/\/127\.0\.0\.1:(\d+)\//);
      const url = `http://127.0.0.1:${port}/mcp`;
      const start = {
        command: 'node',
        args: [join(SERVERS, 'http-server.mjs'), '--port', String(port)],
      };
      const config = await writeConfig(dir, {
        servers: { one: { url, start }, two: { url, start } },
      });
      const run = await runCli(['list', '--config', config, '--concurrency', '2'], { cwd: dir });
      expectCouldNotAudit(
        run,
        /Server "one": Something already answers at http:\/\/127\.0\.0\.1:\d+\/\*\*\* before the start command has run/,
      );
    } finally {
      await killAllFixtures();
    }
  });
});

describe('the concurrency setting', () => {
  it('is a positive whole number on the command line', async () => {
    const run = await runCli(['list', '--concurrency', '0', '--', 'node', 'server.mjs']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--concurrency must be a positive whole number, not "0"/);
  });

  it('and as the action input', () => {
    expect(readInputs({ INPUT_CONCURRENCY: '3' }).overrides.concurrency).toBe(3);
    expect(() => readInputs({ INPUT_CONCURRENCY: 'all' })).toThrow(
      'Input "concurrency" has the value "all", but it must be a whole number of servers such as 4.',
    );
  });

  it('and in the config file', async () => {
    const dir = await tempDir();
    const config = await writeConfig(dir, { concurrency: 0, servers: { a: { command: 'node' } } });
    const run = await runCli(['list', '--config', config], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/concurrency/);
  });

  it('HTTP start commands on one host and port share a key; loopback names are one host', () => {
    const http = (url: string, start = true) => ({
      kind: 'http' as const,
      url,
      headers: {},
      ...(start ? { start: { command: 'node', args: [], env: {} } } : {}),
    });
    expect(startPortKey(http('http://127.0.0.1:3000/mcp'))).toBe(
      startPortKey(http('http://localhost:3000/other')),
    );
    expect(startPortKey(http('http://127.0.0.1:3000/mcp'))).not.toBe(
      startPortKey(http('http://127.0.0.1:3001/mcp')),
    );
    expect(startPortKey(http('http://example.com/mcp'))).toBe('example.com:80');
    expect(startPortKey(http('http://127.0.0.1:3000/mcp', false))).toBeUndefined();
  });
});
