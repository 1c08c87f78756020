// jsonc-parser is a chunk of its own: a valid class list is read without it, a broken one loads it
// to say where it breaks, and a settings reader called before it is loaded fails loudly. This file
// must not load it up front (each test file gets its own modules).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/clients/claude-code/claude-settings.js';
import { readForCheck } from '../../src/clients/claude-code/settings-check.js';
import { parseClassList, usableBase } from '../../src/core/classlist.js';
import { readClassList } from '../../src/files.js';
import { tempDir } from '../support/cli.js';

describe('jsonc-parser, loaded on demand', () => {
  it('a valid class list needs no parser; a broken one loads it and names line and column', async () => {
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
