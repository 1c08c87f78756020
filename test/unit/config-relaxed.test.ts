// The PR's config against the base commit's, as an allow-list: each difference relaxes the check
// (config-relaxed) unless it is one of the few changes that cannot weaken it.
import { describe, expect, it } from 'vitest';
import { readConfigFile, type ConfigFile } from '../../src/config/file.js';
import { configRelaxations, startChanges } from '../../src/config/relaxations.js';

const SERVER = { command: 'node', args: ['server.mjs'], env: { TOKEN: 's3cret-value' } };

async function config(data: Record<string, unknown>): Promise<ConfigFile | undefined> {
  // A JSON file (as .mcp.json) may hold keys of other clients; a YAML one is refused them.
  return readConfigFile('auditor.json', true, () => Promise.resolve(JSON.stringify(data)));
}

async function relaxed(
  base: Record<string, unknown> | undefined,
  head: Record<string, unknown> | undefined,
): Promise<string[]> {
  const findings = configRelaxations(base && (await config(base)), head && (await config(head)), {
    base: 'auditor.yml at HEAD',
    head: 'auditor.yml',
  });
  const prefix = 'The config auditor.yml relaxes the check against auditor.yml at HEAD: ';
  // start-changed is not a relaxation: the audit pairs it with the tools gone (see startChanges).
  for (const f of findings.filter((f) => f.rule !== 'start-changed')) {
    expect(f.rule).toBe('config-relaxed');
    expect(f.message.startsWith(prefix)).toBe(true);
  }
  return findings
    .filter((f) => f.rule === 'config-relaxed')
    .map((f) => f.message.slice(prefix.length, -1));
}

const base = { servers: { notes: SERVER }, policies: ['claude'] };

describe('config-relaxed: changes that relax the check', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'clientRules lets delete tools run',
      { ...base, clientRules: { delete: 'allow' } },
      [
        'clientRules.delete is "allow" (was unset): the Claude Code rules each class may have differ from the base',
      ],
    ],
    [
      'clientRules delete: ask is laxer than the default deny',
      { ...base, clientRules: { delete: 'ask' } },
      [
        'clientRules.delete is "ask" (was unset): the Claude Code rules each class may have differ from the base',
      ],
    ],
    [
      'a per-tool ask, where the class may say deny',
      { ...base, clientRules: { tools: { mcp__notes__delete_note: 'ask' } } },
      [
        'clientRules.tools.mcp__notes__delete_note is "ask" (was unset): the Claude Code rules each class may have differ from the base',
      ],
    ],
    [
      'settings points the check at another file',
      { ...base, settings: 'other/settings.json' },
      [
        'settings is "other/settings.json" (was unset): the check judges other Claude Code settings files than the base',
      ],
    ],
    [
      'approveLabel changes',
      { ...base, approveLabel: 'ok' },
      ['approveLabel is "ok" (was unset): another label approves what the check fails'],
    ],
    [
      'class-relaxed set to warning lowers a relaxed delete tool from error',
      { ...base, rules: { 'class-relaxed': 'warning' } },
      ['rule class-relaxed is turned down to warning (was error)'],
    ],
    [
      'a server auto-approved by another client',
      { ...base, servers: { notes: { ...SERVER, autoApprove: ['delete_note'] } } },
      ['server "notes": autoApprove is added'],
    ],
    [
      'an unknown key of another client',
      { ...base, inputs: [{ id: 'token', password: true }] },
      ['inputs is added, and it is not a key that cannot weaken the check'],
    ],
  ];
  it.each(cases)('%s', async (_, head, expected) => {
    expect(await relaxed(base, head)).toEqual(expected);
  });

  it('a rule set at the base and unset now falls back to its lower default', async () => {
    const raised = { ...base, rules: { 'class-relaxed': 'error', 'era-mismatch': 'error' } };
    expect(await relaxed(raised, { ...base, rules: { 'class-relaxed': 'error' } })).toEqual([
      'rule era-mismatch is turned down to warning (was error)',
    ]);
    expect(await relaxed(raised, base)).toEqual([
      'rule class-relaxed is turned down to warning (was error)',
      'rule era-mismatch is turned down to warning (was error)',
    ]);
  });

  it('both eras narrowed to one, in the file or in a server, is config-relaxed', async () => {
    const both = { ...base, protocolEra: 'both' };
    expect(await relaxed(both, { ...base, protocolEra: 'legacy' })).toEqual([
      'protocolEra is legacy (was both): the other era is no longer audited',
    ]);
    const pinned = { ...base, servers: { notes: { ...SERVER, protocolEra: 'both' } } };
    expect(
      await relaxed(pinned, { ...base, servers: { notes: { ...SERVER, protocolEra: 'modern' } } }),
    ).toEqual([
      'server "notes": protocolEra is modern (was both): the other era is no longer audited',
    ]);
    expect(await relaxed(base, { ...base, protocolEra: 'modern' })).toEqual([
      'protocolEra is modern (was legacy): the legacy era is no longer audited',
    ]);
  });

  it('a PR config with no base config is judged against the defaults', async () => {
    expect(await relaxed(undefined, { ...base, clientRules: { edit: 'allow' } })).toEqual([
      'policy openai is removed',
      'clientRules.edit is "allow" (was unset): the Claude Code rules each class may have differ from the base',
    ]);
  });
});

describe('config-relaxed: changes that cannot weaken the check', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['the same config', base],
    ['a rule raised', { ...base, rules: { 'era-mismatch': 'error', 'class-relaxed': 'error' } }],
    ['failOn stricter', { ...base, failOn: 'warning' }],
    ['a policy added', { ...base, policies: ['claude', 'openai'] }],
    ['protocolEra to both', { ...base, protocolEra: 'both' }],
    [
      'clientRules made stricter',
      { ...base, clientRules: { edit: 'deny', read: 'ask', open: { read: 'deny' } } },
    ],
    ['limits and timeouts', { ...base, startTimeout: 1, listTimeout: 1, maxPages: 1, maxTools: 1 }],
    ['concurrency and the class list path', { ...base, concurrency: 1, classList: 'x.json' }],
    ['a server added', { ...base, servers: { notes: SERVER, other: SERVER } }],
    ['a server moved to mcpServers', { policies: ['claude'], mcpServers: { notes: SERVER } }],
    [
      "a server's start configuration and description",
      {
        ...base,
        servers: { notes: { command: 'python', args: ['x'], env: {}, description: 'd' } },
      },
    ],
  ];
  it.each(cases)('%s', async (_, head) => {
    expect(await relaxed(base, head)).toEqual([]);
  });

  it('a per-tool allow removed from clientRules', async () => {
    const allowing = { ...base, clientRules: { tools: { mcp__notes__add_note: 'allow' } } };
    expect(await relaxed(allowing, base)).toEqual([]);
    expect(await relaxed(allowing, { ...base, clientRules: { delete: 'allow' } })).toEqual([
      'clientRules.delete is "allow" (was unset): the Claude Code rules each class may have differ from the base',
    ]);
  });

  it('a client added to clients, or the list reordered; one removed is config-relaxed', async () => {
    const listed = { ...base, clients: ['codex'] };
    expect(await relaxed(base, listed)).toEqual([]);
    expect(await relaxed(listed, { ...base, clients: ['opencode', 'codex'] })).toEqual([]);
    expect(await relaxed({ ...base, clients: ['codex', 'opencode'] }, listed)).toEqual([
      'client "opencode" is removed from clients',
    ]);
    expect(await relaxed(listed, base)).toEqual(['client "codex" is removed from clients']);
  });

  it('a waiver removed, reworded or shortened', async () => {
    const waiver = { rule: 'hint-dropped', tool: 'x', reason: 'r', expires: '2030-01-01' };
    const withWaiver = { ...base, waivers: [waiver] };
    expect(await relaxed(withWaiver, base)).toEqual([]);
    expect(
      await relaxed(withWaiver, {
        ...base,
        waivers: [{ ...waiver, reason: 'other', expires: '2029-01-01' }],
      }),
    ).toEqual([]);
    expect(
      await relaxed(withWaiver, { ...base, waivers: [{ ...waiver, expires: '2031-01-01' }] }),
    ).toEqual(['waiver of hint-dropped for "x" now expires 2031-01-01 (was 2030-01-01)']);
  });
});

describe('startChanges', () => {
  it('names what changed in how a server starts, never the values', async () => {
    const head = await config({
      servers: {
        notes: { command: 'node', args: ['other.mjs'], env: { TOKEN: 'new-secret', MODE: 'x' } },
        'my.http': { url: 'https://h/mcp?key=abc', headers: { Authorization: 'Bearer t' } },
      },
    });
    const changes = startChanges(
      await config({
        servers: { notes: SERVER, 'my.http': { url: 'https://h/mcp?key=old' } },
      }),
      head,
    );
    expect([...changes]).toEqual([
      ['notes', ['args', 'env MODE', 'env TOKEN']],
      ['my_http', ['url', 'header Authorization']],
    ]);
    expect(JSON.stringify([...changes])).not.toMatch(/secret|abc|Bearer/);
  });

  it('compares a server under a new key with the one base server gone', async () => {
    const base = await config({ servers: { notes: SERVER } });
    const moved = (data: Record<string, unknown>) => config({ servers: { notes2: data } });
    expect([...startChanges(base, await moved(SERVER))]).toEqual([]);
    expect([...startChanges(base, await moved({ ...SERVER, args: ['other.mjs'] }))]).toEqual([
      ['notes2', ['renamed from "notes"', 'args']],
    ]);
    const two = await config({ servers: { a: SERVER, b: SERVER } });
    expect([...startChanges(two, await moved(SERVER))]).toEqual([
      ['notes2', ['a new key while 2 servers of the base config are gone']],
    ]);
    // A server added beside the base's is just one more audited.
    expect([
      ...startChanges(base, await config({ servers: { notes: SERVER, x: SERVER } })),
    ]).toEqual([]);
  });
});
