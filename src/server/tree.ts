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

/** Every process's stat, from one pass over /proc; undefined where there is no /proc to read. */
function procStats(): Map<number, ProcStat> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const stats = new Map<number, ProcStat>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) stats.set(Number(entry), stat);
  }
  return stats;
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
  /**
   * The process groups of the descendants seen, each with the descendant it was seen on: one that
   * made a session of its own (setsid) leads a group every child it forks joins, whatever its
   * environment or parent. A group is signalled only while that descendant is still the same
   * process and still in it (see ours): a group id is a pid, and may be another's by then.
   */
  private readonly groups = new Map<
    number,
    { pid: number; startTime: string; byMarker: boolean }
  >();
  /** The groups stopped: each is killed at the end, none left stopped (see kill). */
  private readonly stoppedGroups = new Set<number>();
  /** The groups killed, whose members the stop waits for (gone). */
  private killedGroups: number[] = [];

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
        this.noteGroup(stat.pgrp, child, stat.startTime, false);
        queue.push(child);
      }
  }

  /**
   * The environment entry (`NAME=value`) of this server's marker, and the server's start time:
   * a process that carries the entry and started no earlier is one of its descendants.
   */
  private marker: { entry: string; since: number } | undefined;

  mark(entry: string, since: string | undefined): void {
    this.marker = { entry, since: Number(since ?? 0) };
  }

  /**
   * Remembers the running processes that carry the marker, wherever they are in the tree now:
   * a child that detached (setsid) and whose parent exited is found no other way. Each one found
   * is stopped at once, with its group (see groups), so that one forking away under a new pid
   * cannot do so again; the newest pids are read first, while the one that forked last still
   * runs under its pid. Environments that cannot be read (another user's processes) are skipped.
   */
  private collectMarked(): void {
    if (process.platform !== 'linux' || !this.marker) return;
    const { entry, since } = this.marker;
    let pids: number[];
    try {
      pids = readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .sort((a, b) => b - a);
    } catch {
      return;
    }
    for (const pid of pids) {
      if (pid === process.pid || this.seen.has(pid)) continue;
      const stat = readStat(pid);
      if (!stat || stat.state === 'Z' || Number(stat.startTime) < since) continue;
      if (!carries(pid, entry)) continue;
      this.seen.set(pid, stat.startTime);
      this.signal([pid], 'SIGSTOP');
      if (this.noteGroup(stat.pgrp, pid, stat.startTime, true) && this.isOurs(stat.pgrp))
        this.stopGroups([stat.pgrp]);
    }
  }

  /**
   * Remembers a descendant's process group; true when it is new. Never ours nor init's. A group
   * of the server's session, or of a session a descendant made, holds descendants only (a process
   * joins a group of its own session alone): so the group of one found by parentage. One found by
   * the marker alone may have been started by a program outside the tree, in that program's
   * group, so its group counts only while every process in it carries the marker (see ours).
   */
  private noteGroup(group: number, pid: number, startTime: string, byMarker: boolean): boolean {
    if (group <= 1 || group === ownGroup()) return false;
    const known = this.groups.get(group);
    // A later descendant stands for the group once the one it was seen on is gone; one found by
    // parentage proves more than one found by the marker.
    if (!known || (known.byMarker && !byMarker) || !this.isOurs(group))
      this.groups.set(group, { pid, startTime, byMarker });
    return !known;
  }

  /**
   * Whether the group is still ours: the descendant it was seen on is still the same process in
   * it, and, for one seen by the marker alone, no process in it is without the marker.
   */
  private isOurs(group: number): boolean {
    const known = this.groups.get(group);
    if (!known) return false;
    const stat = readStat(known.pid);
    if (stat?.startTime !== known.startTime || stat.pgrp !== group) return false;
    return !known.byMarker || this.allMarked(group);
  }

  private ours(): number[] {
    return [...this.groups.keys()].filter((group) => this.isOurs(group));
  }

  /** Whether every live process of `group` carries the marker. */
  private allMarked(group: number): boolean {
    const entry = this.marker?.entry;
    if (entry === undefined) return false;
    for (const [pid, stat] of procStats() ?? [])
      if (stat.pgrp === group && stat.state !== 'Z' && !carries(pid, entry)) return false;
    return true;
  }

  /** Stops whole groups; each stopped is killed at the end. */
  private stopGroups(groups: number[]): void {
    for (const group of groups) this.stoppedGroups.add(group);
    this.signal(
      groups.map((group) => -group),
      'SIGSTOP',
    );
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
      this.stopGroups(this.ours().filter((group) => !this.stoppedGroups.has(group)));
      for (const pid of fresh) stopped.add(pid);
    }
    // Stopped ones too, even if a read of /proc lost them since: stopped, none can exit and free
    // its pid, and none may be left stopped for good. A group was ours when it was stopped, and
    // stopped, none of it can leave or make way for another's.
    this.killedGroups = [...this.stoppedGroups];
    this.signal(new Set([...stopped, ...this.seen.keys()]), 'SIGKILL');
    this.signal(
      this.killedGroups.map((group) => -group),
      'SIGKILL',
    );
  }

  /** Resolves once every descendant seen, and every group killed, is gone or zombies, or after `ms`. */
  async gone(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      this.prune();
      const left = this.seen.size > 0 || this.killedGroups.some((group) => !groupGone(group));
      if (!left || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Whether no process of `group` runs: none at all (the cheap answer), or zombies only. */
function groupGone(group: number): boolean {
  try {
    process.kill(-group, 0);
  } catch {
    return true;
  }
  return onlyZombiesIn(group);
}

let ownPgrp: number | undefined;
/** This process's group: never one of a server's, whatever a marked process claims. */
function ownGroup(): number {
  ownPgrp ??= readStat(process.pid)?.pgrp ?? process.pid;
  return ownPgrp;
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
