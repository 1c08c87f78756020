import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enableCompileCache } from '../../src/compile-cache.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runnerTemp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
  temps.push(dir);
  return dir;
}

describe('the module compile cache', () => {
  it('is enabled in a folder of our own under RUNNER_TEMP, never in the repository', () => {
    const temp = runnerTemp();
    const dirs: string[] = [];
    enableCompileCache({ RUNNER_TEMP: temp }, { enableCompileCache: (dir) => dirs.push(dir) });
    expect(dirs).toHaveLength(1);
    expect(dirs[0]?.startsWith(`${temp}/mcp-annotation-auditor-compile-cache`)).toBe(true);
    expect(dirs[0]?.startsWith(process.cwd())).toBe(false);
  });

  it('is not used when another may write to its folder: code read from it would run as ours', () => {
    const temp = runnerTemp();
    const dir = join(temp, `mcp-annotation-auditor-compile-cache-${process.getuid?.() ?? ''}`);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const dirs: string[] = [];
    enableCompileCache({ RUNNER_TEMP: temp }, { enableCompileCache: (d) => dirs.push(d) });
    expect(dirs).toEqual([]);
  });

  it('does nothing where Node has no such API (Node 20), and creates no folder', () => {
    const temp = runnerTemp();
    expect(() => enableCompileCache({ RUNNER_TEMP: temp }, {})).not.toThrow();
    expect(
      existsSync(join(temp, `mcp-annotation-auditor-compile-cache-${process.getuid?.() ?? ''}`)),
    ).toBe(false);
  });
});
