// The processes a server started, on Linux: found by parentage, by process group and by the
// marker in their environment, remembered by pid and start time, and killed at the end.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
/** The fields of `/proc/<pid>/stat` we use. */
export interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  /** Clock ticks since boot: tells a process from a later one given the same pid. */
  startTime: string;
}

/** Parses `/proc/<pid>/stat`; fields are counted from the last ")", as comm may hold ") (". */
export function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  // fields[0] is field 3 (state); ppid is field 4, pgrp field 5 and starttime field 22.
  const fields = text.slice(close + 2).split(' ');
  const [state, ppid, pgrp] = fields;
  const startTime = fields[19];
  if (!state || !ppid || !pgrp || !startTime) return undefined;
  return { state, ppid: Number(ppid), pgrp: Number(pgrp), startTime };
}

const statBuffer = Buffer.alloc(4096);

/** Linux only: the process's stat, or undefined once it is gone. */
export function readStat(pid: number): ProcStat | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return undefined;
  }
  try {
    // One read into a buffer kept for it: a scan of /proc reads every process's. The fields we
    // read are ASCII, and ")" is never part of a multi-byte character.
    return parseStat(statBuffer.toString('latin1', 0, readSync(fd, statBuffer)));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

let threadLists: boolean | undefined;

/**
 * The pids whose parent is `pid`, from the kernel's per-thread lists: a child is listed under the
 * thread that forked it. Read through /proc/<tid>/task/<tid>: the same files under
 * /proc/<pid>/task/ made the server's own exit measurably slower.
 */
export function threadChildren(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${tid}/task/${tid}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

/**
 * Every process's stat, from one pass over /proc (only the pids `only` keeps, when given);
 * undefined where there is no /proc to read.
 */
function procStats(only?: (pid: number) => boolean): Map<number, ProcStat> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const stats = new Map<number, ProcStat>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (only && !only(pid)) continue;
    const stat = readStat(pid);
    if (stat) stats.set(pid, stat);
  }
  return stats;
}

/** Where the kernel's handing out of pids stands: the last one given, and how many so far. */
export interface PidClock {
  /** The pid most recently given out in this pid namespace (/proc/loadavg). */
  lastPid: number;
  /** Tasks (processes and threads) that hold a pid now. */
  tasks: number;
  /** Tasks created since boot, every thread too (/proc/stat "processes"). */
  forks: number;
  /** Pids run from 300 to pid_max - 1, then wrap (/proc/sys/kernel/pid_max). */
  pidMax: number;
}

/** Linux only: the pid clock now, or undefined when any part of it cannot be read. */
export function readPidClock(): PidClock | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const load = /\s\d+\/(\d+)\s+(\d+)\s*$/.exec(readFileSync('/proc/loadavg', 'latin1'));
    const forks = /^processes (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'));
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'latin1'));
    if (!load || !forks || !(pidMax > 0)) return undefined;
    return { tasks: Number(load[1]), lastPid: Number(load[2]), forks: Number(forks[1]), pidMax };
  } catch {
    return undefined;
  }
}

/** The pids reserved below which a wrap never goes. */
const RESERVED_PIDS = 300;
/**
 * Tasks that may have started between a server's spawn and the reading of the clock just after
 * it (a fraction of a millisecond): counted as started since, many times over.
 */
const SPAWN_MARGIN = 1_000;

/**
 * The clock as it stood when `server` got its pid, from one read just after: the pids after the
 * server's are the ones given out since, and the tasks started in between count as started.
 */
export function sinceServer(clock: PidClock, server: number): PidClock {
  return { ...clock, lastPid: server - 1, forks: clock.forks - SPAWN_MARGIN };
}

/**
 * Which pids may belong to a process started between two readings of the clock. The kernel
 * gives pids out in turn, skipping those in use and wrapping at pid_max, so every task started
 * since `before` holds a pid after `before.lastPid` and up to `now.lastPid`, wrapped or not,
 * unless the turn came round past `before.lastPid` again. It cannot have: each task started since
 * moved it by one, and each pid it skipped was in use, by a task started since or by one alive at
 * `before` (as its pid, or as the process group or session id its members still hold: three per
 * task at most); while twice the starts plus three times the tasks alive at `before` stay short
 * of the pids there are, the turn has not come round. Otherwise (or when the clocks disagree on
 * pid_max) undefined: every process is to be read.
 */
export function pidsSince(before: PidClock, now: PidClock): ((pid: number) => boolean) | undefined {
  const started = now.forks - before.forks;
  if (now.pidMax !== before.pidMax || started < 0) return undefined;
  if (2 * started + 3 * before.tasks + RESERVED_PIDS >= before.pidMax) return undefined;
  const from = before.lastPid;
  const to = now.lastPid;
  return to >= from ? (pid) => pid > from && pid <= to : (pid) => pid > from || pid <= to;
}

/** Every parent's children, from one pass over /proc: for kernels without per-thread lists. */
export function scanChildren(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const [pid, stat] of procStats() ?? []) {
    const siblings = byParent.get(stat.ppid);
    if (siblings) siblings.push(pid);
    else byParent.set(stat.ppid, [pid]);
  }
  return byParent;
}

/** A lister of each process's children, the cheapest this kernel offers. */
function childLister(): (pid: number) => number[] {
  threadLists ??= existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
  if (threadLists) return threadChildren;
  const byParent = scanChildren();
  return (pid) => byParent.get(pid) ?? [];
}

/**
 * Linux only: the server's descendants, remembered by pid and start time. A child that calls
 * setsid() leaves the process group, and once its parent dies it is reparented and no longer
 * found under the server; so the tree is read while the server still runs and again before each
 * signal, and whatever was seen once is killed at the end, unless its pid now names a process
 * that started later.
 */
export class ProcessTree {
  /** pid to start time of every live descendant seen. */
  readonly seen = new Map<number, string>();

  /** Remembers the running descendants of `root` (the live server) and of those seen before. */
  collect(root?: number): void {
    if (process.platform !== 'linux') return;
    this.prune();
    const queue = [...this.seen.keys()];
    if (root !== undefined) queue.push(root);
    if (queue.length === 0) return;
    const childrenOf = childLister();
    for (let pid = queue.pop(); pid !== undefined; pid = queue.pop())
      for (const child of childrenOf(pid)) {
        if (this.seen.has(child)) continue;
        // Read now: the pid may have been given to another process since it was listed.
        const stat = readStat(child);
        if (!stat || stat.state === 'Z' || stat.ppid !== pid) continue;
        this.seen.set(child, stat.startTime);
        queue.push(child);
      }
  }

  /**
   * The environment entry (`NAME=value`) of this server's marker, and the server's start time:
   * a process that carries the entry and started no earlier is one of its descendants.
   */
  private marker: { entry: string; since: number; clock?: PidClock; server: number } | undefined;

  /**
   * `clock` is the pid clock read just after the server started, its pid `server`: what it
   * starts gets pids given out after that one, so the marked processes are looked for only among
   * the pids given out since (see pidsSince), not in all of /proc.
   */
  mark(entry: string, server: number, since: string | undefined, clock?: PidClock): void {
    this.marker = {
      entry,
      since: Number(since ?? 0),
      server,
      ...(clock ? { clock: sinceServer(clock, server) } : {}),
    };
  }

  /**
   * Remembers the running processes that carry the marker, wherever they are in the tree now:
   * a child that detached (setsid) and whose parent exited is found no other way. Environments
   * that cannot be read (another user's processes) are skipped.
   */
  private collectMarked(): void {
    if (process.platform !== 'linux' || !this.marker) return;
    const { entry, since, clock, server } = this.marker;
    const now = clock && readPidClock();
    const fresh = clock && now ? pidsSince(clock, now) : undefined;
    // The server's own pid is among those given out since, or the clock is not this /proc's (a
    // pid namespace apart): then every process is read.
    const only = fresh?.(server) ? fresh : undefined;
    for (const [pid, stat] of procStats(only) ?? []) {
      if (this.seen.has(pid) || stat.state === 'Z' || Number(stat.startTime) < since) continue;
      if (pid !== process.pid && carries(pid, entry)) this.seen.set(pid, stat.startTime);
    }
  }

  /** Forgets the processes that are gone, zombies, or whose pid now names another process. */
  private prune(): void {
    for (const [pid, startTime] of this.seen) {
      const stat = readStat(pid);
      if (stat?.startTime !== startTime || stat.state === 'Z') this.seen.delete(pid);
    }
  }

  private signal(pids: Iterable<number>, signal: NodeJS.Signals): void {
    for (const pid of pids)
      try {
        process.kill(pid, signal);
      } catch {
        // Gone meanwhile.
      }
  }

  /**
   * SIGKILLs every descendant seen that still runs. Each is stopped first and the tree read again
   * until nothing new shows, so that a child forked meanwhile is not orphaned unseen.
   */
  kill(root?: number): void {
    const stopped = new Set<number>();
    for (let round = 0; round < 10; round += 1) {
      this.collect(root);
      this.collectMarked();
      const fresh = [...this.seen.keys()].filter((pid) => !stopped.has(pid));
      if (fresh.length === 0) break;
      this.signal(fresh, 'SIGSTOP');
      for (const pid of fresh) stopped.add(pid);
    }
    // Stopped ones too, even if a read of /proc lost them since: stopped, none can exit and free
    // its pid, and none may be left stopped for good.
    this.signal(new Set([...stopped, ...this.seen.keys()]), 'SIGKILL');
  }

  /** Resolves once every descendant seen is gone or a zombie, or after `ms`. */
  async gone(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      this.prune();
      if (this.seen.size === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Whether the process's environment holds `entry` (`NAME=value`); false when it cannot be read. */
function carries(pid: number, entry: string): boolean {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${entry}\0`);
  } catch {
    return false;
  }
}

/** Linux only: whether every process in group `pgid` is a zombie (dead, not yet reaped). */
export function onlyZombiesIn(pgid: number): boolean {
  if (process.platform !== 'linux') return false;
  const stats = procStats();
  return (
    stats !== undefined && ![...stats.values()].some((s) => s.pgrp === pgid && s.state !== 'Z')
  );
}
