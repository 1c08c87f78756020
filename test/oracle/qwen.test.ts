// The real Qwen Code is the oracle for check's Qwen Code verdicts: for each committed
// .qwen/settings.json below, in a temporary repository, check predicts what Qwen Code does with
// each notes tool (tools[].clients.qwen of its JSON report), and the real binary, in the same
// repository, calls the three in one run: what it did with each (ran, refused because headless
// cannot ask, refused by a deny rule) must be that prediction. Skipped with SKIP_ORACLES=1.
import { afterAll, describe, it } from 'vitest';
import type { ClientVerdict } from '../../src/clients/client.js';
import { NOTES_SERVER, removeTempDirs, tempDir } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { expectPredicted, pooled, predict, repository, writtenRules } from './harness.js';
import { notesCalls, observeQwen, type QwenCase } from './qwen-harness.js';

const skip = process.env.SKIP_ORACLES === '1';
afterAll(removeTempDirs);

const settings = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const ALLOW_SERVER = settings({ permissions: { allow: ['mcp__notes'] } });

/** Committed configs, each verified on the binary: [what it shows, the case]. */
interface Row extends QwenCase {
  /**
   * The server is trusted in the user's own settings, which check does not read (it reads the
   * repository): a tool no committed rule decides (check: the default, no rule) runs unasked.
   */
  userTrust?: true;
  /**
   * The committed file is what `rules --client qwen --write .qwen/settings.json` leaves, run by
   * the built CLI in the repository over `project` with the example's class list.
   */
  rules?: true;
}

const MATRIX: [string, Row][] = [
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
      userTrust: true,
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
    { project: ALLOW_SERVER, rules: true },
  ],
];

/** What Qwen Code does, from check's verdicts in the repository. */
function observable(verdicts: Record<string, ClientVerdict> | undefined, row: Row) {
  return Object.fromEntries(
    notesTools().map(({ tool }) => {
      const v = verdicts?.[tool];
      if (!v) throw new Error(`check judged no Qwen Code config for ${tool}`);
      return [tool, row.userTrust && v.rule === undefined ? 'allow' : v.decision];
    }),
  );
}

// Two cases at once: each is Qwen Code's large bundle starting, many seconds of CPU.
const slot = pooled(2);
const cache = tempDir();

describe
  .skipIf(skip)
  .concurrent('the real Qwen Code does what check predicts', { timeout: 300_000 }, () => {
    it.each(MATRIX)('with %s', async (_name, row) => {
      const key = row.servers?.[0]?.key ?? 'notes';
      const dir = await repository({ '.qwen/settings.json': row.project });
      if (row.rules) await writtenRules(dir, 'qwen', '.qwen/settings.json');
      const [check, seen] = await Promise.all([
        predict(dir, [{ key, args: [NOTES_SERVER] }]),
        slot(async () => observeQwen(dir, row, notesCalls(key), await cache)),
      ]);
      expectPredicted(observable(check.servers[0]?.qwen, row), seen, check.run.stdout);
    });
  });
