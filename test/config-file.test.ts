import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigFile, resolveSettings } from '../src/config.js';
import { describeError } from '../src/errors.js';
import { tempDir } from './support/cli.js';

/** Writes `text` to `name` in a fresh folder and reads it as a config file. */
async function read(name: string, text: string): ReturnType<typeof readConfigFile> {
  const path = join(await tempDir(), name);
  await writeFile(path, text);
  return readConfigFile(path, true);
}

/** What the user reads when reading the config file fails. */
async function readError(name: string, text: string): Promise<string> {
  try {
    await read(name, text);
  } catch (error) {
    return describeError(error);
  }
  throw new Error('the config file was accepted');
}

const waiver = (expires: string) =>
  `waivers:\n  - rule: hint-dropped\n    tool: delete_note\n    reason: reviewed\n    expires: ${expires}\n`;

describe('config file: waiver expiry dates', () => {
  it('accepts a real day, quoted or not', async () => {
    expect((await read('a.yml', waiver('2027-02-28')))?.waivers?.[0]?.expires).toBe('2027-02-28');
    expect((await read('a.yml', waiver('"2028-02-29"')))?.waivers?.[0]?.expires).toBe('2028-02-29');
  });

  it.each(['2027-13-45', '2027-02-30', '2099-99-99', '2027-02-29', 'next year', '2027-1-5'])(
    'refuses %s, naming the waiver and the format',
    async (day) => {
      const message = await readError('a.yml', waiver(day));
      expect(message).toContain(`a.yml has a waiver of hint-dropped for "delete_note"`);
      expect(message).toContain(`expires "${day}", which is not a date`);
      expect(message).toContain('YYYY-MM-DD');
    },
  );
});

describe('config file: unknown top-level keys', () => {
  it('are refused in the auditor config, with the key they were probably meant to be', async () => {
    for (const [typo, meant] of [
      ['polices: [claude]', 'policies'],
      ['failon: never', 'failOn'],
      ['classlist: x.json', 'classList'],
      ['server: {}', 'servers'],
    ] as const) {
      const message = await readError('auditor.yml', `${typo}\n`);
      const key = typo.slice(0, typo.indexOf(':'));
      expect(message).toContain(
        `auditor.yml has an unknown key "${key}"; did you mean "${meant}"?`,
      );
    }
    const message = await readError('auditor.yml', 'colour: blue\n');
    expect(message).toContain('auditor.yml has an unknown key "colour".');
    expect(message).toContain('Known keys: classList, policies, failOn');
  });

  it('are left alone in a .mcp.json written for other tools', async () => {
    const file = await read(
      '.mcp.json',
      JSON.stringify({
        mcpServers: { notes: { command: 'node', args: ['server.js'] } },
        globalShortcut: 'Ctrl+Space',
        inputs: [],
      }),
    );
    expect(Object.keys(file?.mcpServers ?? {})).toEqual(['notes']);
    // VS Code's .vscode/mcp.json has "servers" and "inputs".
    const vscode = await read(
      'mcp.json',
      '{"servers": {"notes": {"command": "node"}}, "inputs": []}',
    );
    expect(Object.keys(vscode?.servers ?? {})).toEqual(['notes']);
  });

  it('a miscased known key is refused even in JSON', async () => {
    expect(await readError('mcp.json', '{"mcpservers": {}}')).toContain(
      'did you mean "mcpServers"?',
    );
  });
});

describe('settings: the class list path', () => {
  const flags = { command: ['node', 'server.js'] };

  it('an empty --class-list is refused', () => {
    expect(() => resolveSettings(undefined, 'auditor.yml', { ...flags, classList: '' })).toThrow(
      /--class-list is empty/,
    );
  });

  it('an empty classList in the config file is refused, naming the file', async () => {
    const file = await read('auditor.yml', "classList: ''\n");
    expect(() => resolveSettings(file, 'auditor.yml', flags)).toThrow(
      /classList in auditor\.yml is empty/,
    );
  });
});
