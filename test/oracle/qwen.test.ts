// The real Qwen Code is the oracle for the Qwen Code client model (src/clients/qwen/): for each
// committed .qwen/settings.json below it calls the three notes tools in one run, and what it did
// with each (ran, refused because headless cannot ask, refused by a deny rule) must be what the
// model decides from the same files. Skipped with SKIP_ORACLES=1.
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientDecision } from '../../src/clients/client.js';
import { qwen } from '../../src/clients/qwen/index.js';
import { removeTempDirs, tempDir } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { pooled } from './harness.js';
import { notesCalls, observeQwen, userSettings, type QwenCase } from './qwen-harness.js';

const skip = process.env.SKIP_ORACLES === '1';
await qwen.load?.();
afterAll(removeTempDirs);

const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
const settings = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const ALLOW_SERVER = settings({ permissions: { allow: ['mcp__notes'] } });

/** Committed configs, each verified on the binary: [what it shows, the case]. */
const MATRIX: [string, QwenCase][] = [
  [
    '"*" alone allows no MCP tool: the default asks (refused headless)',
    { project: settings({ permissions: { allow: ['*'] } }) },
  ],
  ['mcp__notes allows the whole server', { project: ALLOW_SERVER }],
  [
    'deny beats allow: mcp__notes__* denied, list_notes allowed',
    {
      project: settings({
        permissions: { allow: ['mcp__notes__list_notes'], deny: ['mcp__notes__*'] },
      }),
    },
  ],
  [
    'tools.approvalMode yolo: an ask rule runs, only deny holds',
    {
      project: settings({
        tools: { approvalMode: 'yolo' },
        permissions: { ask: ['mcp__notes__add_note'], deny: ['mcp__notes__delete_note'] },
      }),
    },
  ],
  [
    'a trusted server (user settings): ask and deny rules still hold',
    {
      servers: [{ key: 'notes', trust: true }],
      project: settings({
        permissions: { ask: ['mcp__notes__add_note'], deny: ['mcp__notes__delete_note'] },
      }),
    },
  ],
  [
    'server key my.notes: hashed names, the dotted rule and a _ prefix match, the _ exact name not',
    {
      servers: [{ key: 'my.notes' }],
      project: settings({
        permissions: {
          allow: ['mcp__my_notes__add_note', 'mcp__my_notes__list_*'],
          deny: ['mcp__my.notes__delete_note'],
        },
      }),
    },
  ],
  [
    'rules --client qwen --write over an allow of the whole server',
    { project: qwen.writeRules(ALLOW_SERVER, notesTools(), MAPPING) },
  ],
];

/** What the model decides from the user's and the project's settings, by Qwen Code's names. */
function predicted(c: QwenCase): Record<string, ClientDecision> {
  const servers = c.servers ?? [{ key: 'notes' }];
  const state = qwen.read([
    { path: '~/.qwen/settings.json', text: userSettings(servers) },
    ...(c.project === undefined ? [] : [{ path: '.qwen/settings.json', text: c.project }]),
  ]);
  const key = servers[0]?.key ?? 'notes';
  return Object.fromEntries(
    notesTools(key).map((t) => [qwen.fullName(key, t.tool), qwen.decide(state, t).decision]),
  );
}

// Two cases at once: each is Qwen Code's large bundle starting, many seconds of CPU.
const slot = pooled(2);
const cache = tempDir();

describe
  .skipIf(skip)
  .concurrent('the real Qwen Code agrees with the Qwen Code model', { timeout: 300_000 }, () => {
    it.each(MATRIX)('with %s', async (_name, c) => {
      const calls = notesCalls(c.servers?.[0]?.key);
      const seen = await slot(async () => observeQwen(c, calls, await cache));
      expect(seen).toEqual(predicted(c));
    });
  });
