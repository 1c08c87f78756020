// The real Codex CLI is the oracle for check's Codex verdicts: for each committed
// .codex/config.toml below, in a temporary repository, check predicts what Codex does with each
// tool (tools[].clients.codex of its JSON report), and the real binary, run in the same
// repository, calls the tools: what it did with each (ran, asked, hid) must be that prediction.
// Skipped with SKIP_ORACLES=1.
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientTool } from '../../src/clients/client.js';
import { codex } from '../../src/clients/codex/index.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVERS, removeTempDirs, tempDir } from '../support/cli.js';
import { notesCalls, observeCodex, serverTable, type CodexCase } from './codex-harness.js';
import {
  NOTES,
  decisions,
  expectPredicted,
  pooled,
  predict,
  repository,
  writtenRules,
} from './harness.js';

const skip = process.env.SKIP_ORACLES === '1';
afterAll(removeTempDirs);

const CONFIGURABLE = join(SERVERS, 'configurable.mjs');
const HINTS = await tempDir();
const NOTES_TABLE = serverTable('notes');
const tool = (name: string, approval: string) =>
  `[mcp_servers.notes.tools.${name}]\napproval_mode = "${approval}"\n`;

interface Row extends CodexCase {
  /** The server key as the committed file and the class list write it (default notes). */
  key?: string;
  /** The server's arguments to Node (default: the notes server). */
  args?: string[];
  /** The tools, with their declared hints (default: the notes tools). */
  tools?: ClientTool[];
  /**
   * The committed file is what `rules --client codex --write .codex/config.toml` leaves, run by
   * the built CLI in the repository over `project` (none: no file yet) with the example's class list.
   */
  rules?: true;
}

/** A server with every combination of readOnlyHint, destructiveHint and openWorldHint. */
function hintsServer(mode: string): Row {
  const values = { '1': true, '0': false, _: undefined } as const;
  const specs: { name: string; annotations: Record<string, boolean> }[] = [];
  for (const r of ['1', '0', '_'] as const)
    for (const d of ['1', '0', '_'] as const)
      for (const o of ['1', '0', '_'] as const) {
        const annotations: Record<string, boolean> = {};
        const set = (hint: string, v: keyof typeof values) => {
          if (values[v] !== undefined) annotations[hint] = values[v];
        };
        set('readOnlyHint', r);
        set('destructiveHint', d);
        set('openWorldHint', o);
        specs.push({ name: `t_r${r}d${d}o${o}`, annotations });
      }
  // In a file: a spec on the command line is masked in check's report as a possible secret.
  const spec = join(HINTS, 'hints.json');
  writeFileSync(
    spec,
    JSON.stringify({ name: 'hints', tools: specs.map((s) => ({ ...s, description: 'x' })) }),
  );
  return {
    key: 'hints',
    args: [CONFIGURABLE, spec],
    project: `${serverTable('hints', [CONFIGURABLE, spec])}default_tools_approval_mode = "${mode}"\n`,
    tools: specs.map((s) => ({
      server: 'hints',
      tool: s.name,
      class: 'edit',
      declared: s.annotations,
    })),
  };
}

/** Committed configs, each verified on the binary: [what it shows, the case]. */
const MATRIX: [string, Row][] = [
  ['no approval settings: auto from the annotations', { project: NOTES_TABLE }],
  ['default prompt', { project: `${NOTES_TABLE}default_tools_approval_mode = "prompt"\n` }],
  ['default writes', { project: `${NOTES_TABLE}default_tools_approval_mode = "writes"\n` }],
  ['default approve', { project: `${NOTES_TABLE}default_tools_approval_mode = "approve"\n` }],
  ['default auto, written', { project: `${NOTES_TABLE}default_tools_approval_mode = "auto"\n` }],
  [
    'per-tool overrides over a prompt default',
    {
      project: `${NOTES_TABLE}default_tools_approval_mode = "prompt"\n${tool('add_note', 'approve')}${tool('delete_note', 'auto')}`,
    },
  ],
  [
    'per-tool prompt over an approve default',
    {
      project: `${NOTES_TABLE}default_tools_approval_mode = "approve"\n${tool('delete_note', 'prompt')}`,
    },
  ],
  [
    'dotted keys and an inline table',
    {
      project: `${NOTES_TABLE}tools.delete_note.approval_mode = "approve"\ntools.add_note = { approval_mode = "prompt" }\n`,
    },
  ],
  [
    'enabled_tools, and disabled_tools over it',
    {
      project: `${NOTES_TABLE}enabled_tools = ["list_notes", "delete_note"]\ndisabled_tools = ["delete_note"]\n`,
    },
  ],
  ['disabled_tools alone', { project: `${NOTES_TABLE}disabled_tools = ["add_note", "gone"]\n` }],
  ['an empty enabled_tools', { project: `${NOTES_TABLE}enabled_tools = []\n` }],
  [
    'enabled = false',
    { project: `${NOTES_TABLE}enabled = false\ndefault_tools_approval_mode = "approve"\n` },
  ],
  [
    'keys Codex ignores: a server-level approval_mode, a tool-level enabled',
    {
      project: `${NOTES_TABLE}approval_mode = "approve"\ndefault_tools_enabled = false\n[mcp_servers.notes.tools.delete_note]\nenabled = false\n`,
    },
  ],
  [
    'key my.notes (namespace mcp__my_notes), writes',
    {
      key: 'my.notes',
      project: `${serverTable('my.notes')}default_tools_approval_mode = "writes"\n`,
      calls: notesCalls('mcp__my_notes'),
    },
  ],
  [
    'key My-Notes (namespace mcp__My_Notes), a per-tool prompt',
    {
      key: 'My-Notes',
      project: `${serverTable('My-Notes')}[mcp_servers.My-Notes.tools.add_note]\napproval_mode = "prompt"\n`,
      calls: notesCalls('mcp__My_Notes'),
    },
  ],
  [
    'the project tunes a server of the user config (merged key by key)',
    {
      user: NOTES_TABLE,
      project: `${tool('delete_note', 'approve')}${tool('list_notes', 'prompt')}`,
    },
  ],
  [
    'the project default beats the user default for the same server',
    {
      user: `${NOTES_TABLE}default_tools_approval_mode = "approve"\n`,
      project: '[mcp_servers.notes]\ndefault_tools_approval_mode = "writes"\n',
    },
  ],
  [
    'rules --client codex --write with no file (the server in the user config)',
    { user: NOTES_TABLE, rules: true },
  ],
  [
    'rules --client codex --write into a file with the server and an approve default',
    {
      project: `# committed\n${NOTES_TABLE}default_tools_approval_mode = "approve"\n`,
      rules: true,
    },
  ],
  ['every hint combination, auto', hintsServer('auto')],
  ['every hint combination, writes', hintsServer('writes')],
];

// Four cases at once: each is Codex and two notes servers, a few seconds.
const slot = pooled(4);

/** The row's repository, what check predicts there for Codex, and what Codex did there. */
async function judged(row: Row) {
  const dir = await repository({ '.codex/config.toml': row.project });
  if (row.rules) await writtenRules(dir, 'codex', '.codex/config.toml');
  const key = row.key ?? 'notes';
  const calls =
    row.calls ??
    (row.tools
      ? row.tools.map((t) => ({ name: codex.fullName(key, t.tool), tool: t.tool, input: {} }))
      : undefined);
  const server = { key, args: row.args ?? NOTES.args };
  const [check, seen] = await Promise.all([
    predict(dir, [server]),
    slot(() => observeCodex(dir, { ...row, ...(calls ? { calls } : {}) })),
  ]);
  return { predicted: decisions(check.servers[0], 'codex'), seen, report: check.run.stdout };
}

describe
  .skipIf(skip)
  .concurrent('the real Codex CLI does what check predicts', { timeout: 300_000 }, () => {
    it('with the rules the class list maps to: list_notes runs, add_note and delete_note ask', async () => {
      const { predicted, seen } = await judged({ user: NOTES_TABLE, rules: true });
      expect(seen).toEqual({ list_notes: 'allow', add_note: 'ask', delete_note: 'ask' });
      expectPredicted(predicted, seen);
    });

    it.each(MATRIX)('with %s', async (_name, row) => {
      const { predicted, seen, report } = await judged(row);
      expectPredicted(predicted, seen, report);
    });
  });
