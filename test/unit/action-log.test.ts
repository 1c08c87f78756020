// The action's log lines (logLine): whatever text they carry, the runner finds no workflow
// command in them. core.info writes to stdout; the test reads what it wrote.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logLine } from '../../src/action/log.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** What logLine wrote for `text`. */
function logged(text: string): string {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  logLine(text);
  return written.join('');
}

/** The commands GitHub's runner would run from a log: `::name` after white space, `##[name]`. */
function runnerCommands(log: string): string[] {
  return log.split(/\r\n|\r|\n/).flatMap((line) => {
    const v2 = /^::([\w-]+)/.exec(line.replace(/^\p{White_Space}+/u, ''));
    const v1 = /##\[([\w-]+)/.exec(line);
    return [v2?.[1], v1?.[1]].filter((c) => c !== undefined);
  });
}

describe('logLine', () => {
  it('writes a line with no workflow command in it, whatever the text holds', () => {
    const text = [
      'verdict x.json',
      '::warning title=INJECTED::from a report',
      '\u0085::stop-commands::t0k',
      '  \u00a0::add-mask::FAILED',
      'mid ##[set-output name=result;]passed',
      'a\r::error::b',
    ].join('\n');
    const log = logged(text);
    expect(runnerCommands(text)).toEqual([
      'warning',
      'stop-commands',
      'add-mask',
      'set-output',
      'error',
    ]);
    expect(runnerCommands(log)).toEqual([]);
    expect(log).toContain('verdict x.json');
  });
});
