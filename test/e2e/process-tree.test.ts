// A server's child that calls setsid() leaves the server's process group, so killing the group
// misses it; the auditor also follows the server's descendants by parentage (Linux). Runs the
// source modules against real processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, listTools } from '../../src/server/listing.js';
import {
  serverEnvironment,
  ServerProcess,
  stopInBackground,
  stopAll,
  type SpawnSpec,
} from '../../src/server/process.js';
import {
  parseStat,
  ProcessTree,
  readStat,
  scanChildren,
  threadChildren,
} from '../../src/server/tree.js';
import { EXAMPLE, SERVERS, runCli, tempDir } from '../support/cli.js';
import { expectCouldNotAudit, expectNoneLeft, reportedPids, watched } from '../support/pids.js';
import { isAlive, LEGACY_INITIALIZE, waitUntilGone } from '../support/spawn-fixture.js';

const linux = process.platform === 'linux';

function spec([command, ...args]: string[]): SpawnSpec {
  return { command: command ?? '', args, env: serverEnvironment({}) };
}

/** Lists the server's tools the way an audit does, and waits until every stop has finished. */
async function audit(command: string[]): Promise<number> {
  try {
    const listing = await listTools({ kind: 'stdio', spawn: spec(command) }, 'legacy', {
      ...DEFAULT_LIMITS,
      startTimeoutMs: 15_000,
    });
    return listing.rawTools.length;
  } finally {
    await stopAll();
  }
}

/** Resolves once the server has answered `initialize`: booted, its children started. */
async function handshake(server: ServerProcess): Promise<void> {
  const answered = new Promise((resolve) => server.child.stdout.once('data', resolve));
  server.child.stdin.write(`${JSON.stringify(LEGACY_INITIALIZE)}\n`);
  await answered;
}

describe.runIf(linux)('a server whose child leaves the process group (setsid)', () => {
  it('the setsid grandchild is gone once the audit has stopped the server', async () => {
    const server = await watched('spawns-setsid-grandchild.mjs');
    expect(await audit(server.command)).toBe(3);
    await expectNoneLeft(server.pidFile, 1);
  });

  it('so is a process below it, in the session the grandchild started', async () => {
    const server = await watched('spawns-setsid-grandchild.mjs', ['2']);
    expect(await audit(server.command)).toBe(3);
    await expectNoneLeft(server.pidFile, 2);
  });

  it('the last-resort kill (the exit hook) takes the descendants too', async () => {
    const watchedServer = await watched('spawns-setsid-grandchild.mjs');
    const server = new ServerProcess(spec(watchedServer.command));
    try {
      await handshake(server);
      const { others } = await reportedPids(watchedServer.pidFile);
      expect(others).toHaveLength(1);
      const [grandchild = 0] = others;
      expect(isAlive(grandchild)).toBe(true);
      server.killAll();
      await waitUntilGone(grandchild);
    } finally {
      await server.stop();
    }
  });
});

/**
 * The processes of `group` that are not zombies. The group is stopped first (SIGSTOP reaches
 * every member at once), so that none can fork away while /proc is read.
 */
function liveIn(group: number): number[] {
  try {
    process.kill(-group, 'SIGSTOP');
  } catch {
    return [];
  }
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = readStat(pid);
      return stat !== undefined && stat.pgrp === group && stat.state !== 'Z';
    });
}

describe.runIf(linux)('a group found by the marker alone', () => {
  it('is not killed while a process in it is without the marker: it may not be a descendant', async () => {
    // A process with the marker, started into a group that also holds one without it (as a
    // program outside the tree could start it into its own): that one process goes, the group
    // and its other member stay.
    const script = 'X_MARK=here sleep 300 & echo "$!"; exec sleep 300';
    const leader = spawn('sh', ['-c', script], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const marked = Number(
      await new Promise<string>((resolve) =>
        leader.stdout.once('data', (d: Buffer) => resolve(d.toString())),
      ),
    );
    const group = leader.pid ?? 0;
    try {
      // The child is forked before it runs sleep with the marker: wait until it carries it.
      const carries = () =>
        readFile(`/proc/${marked}/environ`, 'latin1').then(
          (env) => env.includes('\0X_MARK=here\0') || env.startsWith('X_MARK=here\0'),
          () => false,
        );
      while (!(await carries())) await new Promise((resolve) => setTimeout(resolve, 10));
      const tree = new ProcessTree();
      tree.mark('X_MARK=here', '0');
      tree.kill();
      await waitUntilGone(marked);
      expect(isAlive(group)).toBe(true);
      expect(liveIn(group)).toEqual([group]);
    } finally {
      process.kill(-group, 'SIGKILL');
    }
  });
});

describe.runIf(linux)('a server whose helper keeps an unmarked child in its own group', () => {
  it('the child (no marker, out of the tree) goes with the group of the marked helper', async () => {
    // The child carries no marker and its parent is gone: only the group of the helper, which
    // does carry it, leads to the child.
    const groupFile = join(await tempDir(), 'group.txt');
    const run = await runCli([
      'list',
      '--',
      'node',
      join(SERVERS, 'group-keeps-child.mjs'),
      groupFile,
    ]);
    const group = Number(await readFile(groupFile, 'utf8'));
    try {
      expect(run.code, run.stderr).toBe(0);
      expect(group).toBeGreaterThan(1);
      expect(liveIn(group)).toEqual([]);
    } finally {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // None left, as it should be.
      }
    }
  });
});

describe.runIf(linux)('a server that detaches a child and exits at once', () => {
  it('the detached child (its own session, no pipes) is gone once the audit has exited', async () => {
    // The server is gone before its tree can be read, and the child has left its group: only
    // the marker the auditor put in the server's environment leads to it.
    const server = await watched('detaches-then-exits.mjs');
    const run = await runCli(['list', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server exited with code 3 during the handshake \(initialize\), before listing any tools\./,
    );
    await expectNoneLeft(server.pidFile, 1);
  });
});

describe.runIf(linux)('descendants are remembered by pid and start time', () => {
  it('parseStat counts fields from the last ")": a command name may hold spaces and ") ("', () => {
    // Fields 3 to 22: state, ppid, then 17 others (pgrp first), then starttime.
    const rest = ['S', '17', ...Array.from({ length: 17 }, (_, i) => String(100 + i)), '987654'];
    const text = `4242 (a) (b c)) ${rest.join(' ')} 1000 200\n`;
    expect(parseStat(text)).toEqual({ state: 'S', ppid: 17, pgrp: 100, startTime: '987654' });
    expect(parseStat('4242 no parenthesis')).toBeUndefined();
    expect(parseStat('4242 (short) S 1 2')).toBeUndefined();
  });

  it('readStat reads this very process: its parent, and a start time that does not change', () => {
    const stat = readStat(process.pid);
    expect(stat?.ppid).toBe(process.ppid);
    expect(stat?.state).not.toBe('Z');
    expect(stat?.startTime).toMatch(/^\d+$/);
    expect(readStat(process.pid)?.startTime).toBe(stat?.startTime);
  });

  const sleepers = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of sleepers) child.kill('SIGKILL');
    sleepers.clear();
  });

  /** A process of the test's own, and how it ended; killed after the test whatever happens. */
  function sleeper() {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], {
      stdio: 'ignore',
    });
    sleepers.add(child);
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const pid = child.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    return { child, pid, ended };
  }

  it("the kernel's per-thread lists and a pass over /proc both find a child of this process", () => {
    const { pid } = sleeper();
    expect(scanChildren().get(process.pid)).toContain(pid);
    if (existsSync(`/proc/${process.pid}/task/${process.pid}/children`))
      expect(threadChildren(process.pid)).toContain(pid);
  });

  it('a pid recorded with another start time (recycled since) is not signalled', async () => {
    const { child, pid, ended } = sleeper();
    const startTime = readStat(pid)?.startTime ?? '';
    expect(startTime).not.toBe('');
    const tree = new ProcessTree();
    tree.seen.set(pid, String(Number(startTime) - 1));
    tree.kill();
    expect(tree.seen.has(pid)).toBe(false);
    // Signals are delivered in order: had kill() sent SIGKILL, that would be how it ended.
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
  });

  it('a process carrying the marker, wherever it is in the tree, is killed at the stop', async () => {
    const entry = `MCP_ANNOTATION_AUDITOR_SERVER_ID=test-${process.pid}-${Math.random()}`;
    const [name, value] = entry.split('=') as [string, string];
    const since = readStat(process.pid)?.startTime;
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], {
      stdio: 'ignore',
      env: { ...process.env, [name]: value },
    });
    sleepers.add(child);
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const tree = new ProcessTree();
    tree.mark(entry, since);
    tree.kill();
    expect(await ended).toBe('SIGKILL');
  });

  it('...while the same pid with its own start time is killed', async () => {
    const { child, pid, ended } = sleeper();
    const tree = new ProcessTree();
    tree.seen.set(pid, readStat(pid)?.startTime ?? '');
    tree.kill();
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGKILL');
  });
});

describe('a server without children', () => {
  it('still stops at the polite request (stdin closed), with no descendant seen', async () => {
    const server = new ServerProcess(spec([process.execPath, EXAMPLE]));
    await handshake(server);
    await server.stop();
    expect(server.describeExit()).toBe('exited with code 0');
    expect(server.descendants.seen.size).toBe(0);
    expect(isAlive(server.pid ?? 0)).toBe(false);
  });

  it('is stopped by stopAll while a listing still holds it, and a stop asked twice is one stop', async () => {
    // What every entry awaits before it ends, an error in the middle of a listing included: the
    // held server is no one's to stop but its listing's, and is gone all the same.
    const held = new ServerProcess(spec([process.execPath, EXAMPLE]));
    const stopping = new ServerProcess(spec([process.execPath, EXAMPLE]));
    await Promise.all([handshake(held), handshake(stopping)]);
    expect(stopping.stop()).toBe(stopping.stop());
    await stopAll();
    for (const server of [held, stopping]) {
      expect(server.hasExited).toBe(true);
      expect(isAlive(server.pid ?? 0)).toBe(false);
    }
  });

  it('gets the end of its input while the audit is still busy: the pipe closes at the stop', async () => {
    // A server that writes a file when its input ends. Once stopped in the background, the audit
    // goes on without waiting (here, a loop that never yields to the event loop): the server must
    // see the end of its input meanwhile, not when the audit next waits.
    const marker = join(await tempDir(), 'stdin-ended');
    const script = `process.stdin.on('end', () => require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')).resume(); process.stdout.write('ready\\n');`;
    const server = new ServerProcess(spec([process.execPath, '-e', script]));
    await new Promise((resolve) => server.child.stdout.once('data', resolve));
    stopInBackground(server);
    let seen = false;
    // A hang guard only, counted in checks, never in time: the server needs a few ms of CPU.
    for (let check = 0; check < 5_000_000 && !seen; check++) seen = existsSync(marker);
    await stopAll();
    expect(seen).toBe(true);
    expect(isAlive(server.pid ?? 0)).toBe(false);
  });
});

describe('a server whose child stays in its process group', () => {
  it('is audited, and the child is gone with it', async () => {
    const server = await watched('spawns-grandchild.mjs');
    expect(await audit(server.command)).toBe(3);
    await expectNoneLeft(server.pidFile, 1);
  });
});
