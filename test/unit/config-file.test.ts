import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultConcurrency,
  parseHeaders,
  resolveSettings,
  secretsOfServers,
  updateCommandLine,
} from '../../src/config/settings.js';
import { readConfigFile, waiverLines } from '../../src/config/file.js';
import { describeError } from '../../src/errors.js';
import { readInputs } from '../../src/config/inputs.js';
import { tempDir } from '../support/cli.js';

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

describe('config file: a key named __proto__', () => {
  it('is refused wherever it is, since the schema would drop it unseen', async () => {
    const cases: [string, string, string][] = [
      ['a.yml', 'servers:\n  __proto__:\n    command: node\n', ''],
      ['.mcp.json', '{"mcpServers": {"__proto__": {"command": "node"}}}', ' under mcpServers'],
      [
        'a.yml',
        'servers:\n  notes:\n    command: node\n    env:\n      __proto__: x\n',
        ' under servers.notes.env',
      ],
    ];
    for (const [name, text, under] of cases) {
      const message = await readError(name, text);
      expect(message).toContain(
        `has a key "__proto__"${under || ' under servers'}: no key may be named so`,
      );
    }
  });
});

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

describe('settings: the default concurrency', () => {
  it('audits four servers at once even on one or two cores, and two per core beyond', () => {
    // Start-ups mostly wait: on a 2-core runner four 1-second servers took 1.7–1.9 × one two at
    // a time, 1.0–1.2 × four at a time (npm run bench -- --only concurrency).
    expect([1, 2, 3, 8].map((cores) => defaultConcurrency(cores))).toEqual([4, 4, 6, 16]);
  });

  it('applies when neither the flags nor the config file set one', async () => {
    const file = await read('a.yml', 'servers:\n  a: { command: node, args: [a.js] }\n');
    const settings = resolveSettings(file, 'a.yml', {});
    expect(settings.concurrency).toBe(defaultConcurrency());
    expect(settings.concurrency).toBeGreaterThanOrEqual(4);
    expect(resolveSettings(file, 'a.yml', { concurrency: 1 }).concurrency).toBe(1);
  });
});

describe('settings: the policies', () => {
  const flags = { command: ['node', 'server.js'] };

  it('a profile named twice is enforced once, whichever entry point repeats it', async () => {
    const once = ['openai', 'claude'];
    // --policy openai,openai --policy claude, as the CLI passes it on.
    expect(
      resolveSettings(undefined, 'a.yml', { ...flags, policies: ['openai', 'openai', 'claude'] })
        .policies,
    ).toEqual(once);
    const file = await read('a.yml', 'policies: [openai, claude, openai]\n');
    expect(resolveSettings(file, 'a.yml', flags).policies).toEqual(once);
    const inputs = readInputs({
      INPUT_COMMAND: 'node server.js',
      INPUT_POLICIES: 'openai, claude,openai',
    });
    expect(resolveSettings(undefined, 'a.yml', inputs.overrides).policies).toEqual(once);
  });
});

describe('config file: where each waiver is written', () => {
  it('the line of each waiver, in order, in YAML block or flow style and in JSON', async () => {
    expect(
      await waiverLines(
        'failOn: warning\nwaivers:\n  - {rule: hint-dropped, tool: a, reason: r}\n\n  - rule: class-relaxed\n    tool: b\n    reason: r\n',
      ),
    ).toEqual([3, 5]);
    expect(
      await waiverLines(
        JSON.stringify(
          {
            waivers: [
              { rule: 'x', tool: 'a' },
              { rule: 'y', tool: 'b' },
            ],
          },
          null,
          2,
        ),
      ),
    ).toEqual([3, 7]);
    expect(await waiverLines('failOn: never\n')).toEqual([]);
  });
});

/** What the user reads when resolving the settings fails. */
function settingsError(...args: Parameters<typeof resolveSettings>): string {
  try {
    resolveSettings(...args);
  } catch (error) {
    return describeError(error);
  }
  throw new Error('the settings were accepted');
}

describe('config file: server entries', () => {
  it('an env next to url is refused, saying to put it under start', async () => {
    const file = await read(
      'auditor.yml',
      'servers:\n  api:\n    url: http://127.0.0.1:3000/mcp\n    env: {TOKEN: x}\n    start: {command: node, args: [s.js]}\n',
    );
    const message = settingsError(file, 'auditor.yml', {});
    expect(message).toContain('Server "api" in auditor.yml has env next to url');
    expect(message).toContain('under start');
  });

  it('an empty env next to url, as generated .mcp.json files have, is accepted', async () => {
    const file = await read(
      '.mcp.json',
      JSON.stringify({
        mcpServers: { api: { type: 'http', url: 'http://127.0.0.1:3000/mcp', env: {} } },
      }),
    );
    expect(resolveSettings(file, '.mcp.json', {}).servers.map((s) => s.target.kind)).toEqual([
      'http',
    ]);
  });

  it('a name in both mcpServers and servers is refused, naming the server', async () => {
    const file = await read(
      'auditor.yml',
      'mcpServers:\n  notes: {command: node, args: [a.js]}\nservers:\n  notes: {command: node, args: [b.js]}\n  other: {command: node}\n',
    );
    const message = settingsError(file, 'auditor.yml', {});
    expect(message).toContain('"notes"');
    expect(message).toContain('both mcpServers and servers');
  });

  it('a duplicate key: the line and column, and a message that ends cleanly', async () => {
    const message = await readError(
      'auditor.yml',
      'servers:\n  a: {command: x}\n  a: {command: y}\n',
    );
    expect(message).toContain(
      'auditor.yml is not valid YAML at line 3, column 3: Map keys must be unique. Fix the syntax',
    );
    expect(message).not.toContain(':.');
  });
});

describe('settings: flags that would be ignored are refused', () => {
  const two = 'servers:\n  a: {command: node, args: [a.js]}\n  b: {command: node, args: [b.js]}\n';

  it('--server-name with several servers; with one chosen by --server it names that one', async () => {
    const file = await read('auditor.yml', two);
    const message = settingsError(file, 'auditor.yml', { serverName: 'x' });
    expect(message).toContain('--server-name');
    expect(message).toContain('config keys');
    const one = resolveSettings(file, 'auditor.yml', { serverName: 'x', only: ['b'] });
    expect(one.servers.map((s) => s.name)).toEqual(['x']);
  });

  it('--header with a stdio server, from the command line or the config file', async () => {
    expect(
      settingsError(undefined, 'auditor.yml', {
        command: ['node', 'server.js'],
        headers: ['Authorization: Bearer abcdef'],
      }),
    ).toMatch(/--header .*no server of this run speaks HTTP/);
    const file = await read('auditor.yml', two);
    expect(settingsError(file, 'auditor.yml', { headers: ['X-A: 1'] })).toMatch(/--header/);
    // An HTTP server among them takes the headers.
    const mixed = await read('auditor.yml', `${two}  c: {url: 'http://127.0.0.1:1/mcp'}\n`);
    const settings = resolveSettings(mixed, 'auditor.yml', { headers: ['X-A: 1'] });
    const http = settings.servers.find((s) => s.target.kind === 'http')?.target;
    expect(http?.kind === 'http' && http.headers).toEqual({ 'X-A': '1' });
  });

  it('--url that is not http or https', () => {
    for (const url of ['file:///etc/passwd', 'ftp://h/mcp', 'javascript:alert(1)']) {
      const message = settingsError(undefined, 'auditor.yml', { url });
      expect(message).toContain('must be an http:// or https:// URL');
    }
    expect(() =>
      resolveSettings(undefined, 'auditor.yml', { url: 'HTTPS://h/mcp?x=1' }),
    ).not.toThrow();
  });
});

describe('secrets in messages and in the update command', () => {
  it('a bad header says which one and what is wrong, never its value', () => {
    const bad = (lines: string[]) => {
      try {
        parseHeaders(lines);
      } catch (error) {
        return describeError(error);
      }
      throw new Error('the headers were accepted');
    };
    const message = bad(['X-Ok: 1', 'Authorization Bearer SECRET_VALUE']);
    expect(message).not.toContain('SECRET_VALUE');
    expect(message).toContain('Header 2 ("Authorization …") has no colon');
    for (const line of ['SECRET_VALUE', ': SECRET_VALUE', 'Bearer\tSECRET_VALUE'])
      expect(bad([line])).not.toContain('SECRET_VALUE');
    expect(bad(['SECRET_VALUE'])).toContain('Header 1 has no colon');
  });

  it('the update command shows a placeholder for the URL and says to fill it in', () => {
    const command = updateCommandLine({
      url: 'https://user:pw123456@mcp.example.com/mcp?api_key=SK_LIVE_SECRET&v=2',
    });
    expect(command).not.toContain('SK_LIVE_SECRET');
    expect(command).not.toContain('pw123456');
    expect(command).toBe(
      "npx mcp-annotation-auditor@0.1.0 update --url '<url>' # replace <url> with the server's URL",
    );
    // Any URL: its path may hold a key (https://mcp.example.com/k/SECRET/mcp).
    expect(updateCommandLine({ url: 'https://mcp.example.com/k/sk_live_0123456789/mcp' })).toBe(
      "npx mcp-annotation-auditor@0.1.0 update --url '<url>' # replace <url> with the server's URL",
    );
  });

  it("the secrets of every configured HTTP server: its URL's secret parts and header values", async () => {
    process.env.AUDITOR_TEST_TOKEN = 'tok_from_env_1234';
    try {
      const file = await read(
        'auditor.yml',
        'servers:\n  api:\n    url: http://h/mcp?key=QUERY_SECRET\n    headers:\n      Authorization: Bearer ${AUDITOR_TEST_TOKEN}\n  local: {command: node}\n',
      );
      const settings = resolveSettings(file, 'auditor.yml', {});
      expect(secretsOfServers(settings.servers)).toEqual(
        expect.arrayContaining(['QUERY_SECRET', 'Bearer tok_from_env_1234', 'tok_from_env_1234']),
      );
    } finally {
      delete process.env.AUDITOR_TEST_TOKEN;
    }
  });
});
