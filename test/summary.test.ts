// The job summary file: GitHub drops a step's whole summary past 1 MiB, so what would pass it is
// cut, at a character boundary, and the rest still shows.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendSummary, SUMMARY_LIMIT } from '../src/actions.js';
import { tempDir } from './support/cli.js';

describe('appendSummary', () => {
  let saved: string | undefined;
  let file: string;
  beforeEach(async () => {
    saved = process.env.GITHUB_STEP_SUMMARY;
    file = join(await tempDir(), 'summary.md');
    process.env.GITHUB_STEP_SUMMARY = file;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    else process.env.GITHUB_STEP_SUMMARY = saved;
  });

  it('appends what fits as it is, with a final newline', async () => {
    expect(appendSummary('# one')).toBe(true);
    expect(appendSummary('two\n')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('# one\ntwo\n');
  });

  it('cuts what would pass 1 MiB at a character boundary, and says so', async () => {
    await writeFile(file, 'x'.repeat(SUMMARY_LIMIT - 1_000));
    // Three-byte characters: a cut at a byte count would split one.
    expect(appendSummary('€'.repeat(2_000))).toBe(true);
    const text = await readFile(file, 'utf8');
    expect((await stat(file)).size).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(text).not.toContain('\uFFFD');
    expect(text).toContain('€€€');
    expect(text.endsWith("_Cut to fit GitHub's 1 MiB limit on a step's summary._\n")).toBe(true);
  });

  it('writes nothing once the summary is full, and false without a summary file', async () => {
    await writeFile(file, 'x'.repeat(SUMMARY_LIMIT - 10));
    appendSummary('more than ten bytes of text');
    expect((await stat(file)).size).toBe(SUMMARY_LIMIT - 10);
    delete process.env.GITHUB_STEP_SUMMARY;
    expect(appendSummary('anything')).toBe(false);
  });
});
