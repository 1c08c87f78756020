// jsonc-parser is a chunk of its own: a valid class list is read without it, a broken one loads it
// to say where it breaks, and a settings reader called before it is loaded fails loudly. This file
// must not load it up front: the unit layer's files share their modules (isolate: false), so it
// drops them and imports its own.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../support/cli.js';

describe('jsonc-parser, loaded on demand', () => {
  it('a valid class list needs no parser; a broken one loads it and names line and column', async () => {
    vi.resetModules();
    const { parseSettings } = await import('../../src/clients/claude-code/claude-settings.js');
    const { readForCheck } = await import('../../src/clients/claude-code/settings-check.js');
    const { parseClassList, usableBase } = await import('../../src/core/classlist.js');
    const { readClassList } = await import('../../src/files.js');
    expect(parseClassList('{"version": 1, "tools": {}}', 'c.json').tools.size).toBe(0);
    // A settings reader needs lines: called before the load, it fails on any file, loudly.
    expect(() => parseSettings('{}', 's.json')).toThrow(/loadJsonText\(\) was not awaited/);
    expect(() => readForCheck('{}', 's.json', 'project')).toThrow(
      /loadJsonText\(\) was not awaited/,
    );
    expect(await usableBase({ text: '{"version": 1,\n  "tools": {]}' }, 'c.json at main')).toEqual({
      warning: expect.stringMatching(
        /^The class list c\.json at main is not valid JSON at line 2, column 13: unexpected "\]"\./,
      ) as unknown,
    });
    const dir = await tempDir();
    await writeFile(join(dir, 'c.json'), '{"version": 1,\n "tools": {,}}');
    await expect(readClassList(join(dir, 'c.json'))).rejects.toThrow(
      /is not valid JSON at line 2, column 12: unexpected ","\./,
    );
    expect(parseSettings('{}', 's.json').rules).toEqual([]);
  });
});
