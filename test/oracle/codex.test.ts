// The real Codex CLI is the oracle for the Codex client model (src/clients/codex/): for each
// committed .codex/config.toml below it calls the notes tools, and what it did with each (ran,
// asked, hid) must be what the model decides. Skipped with SKIP_ORACLES=1.
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientDecision, ClientTool } from '../../src/clients/client.js';
import { codex } from '../../src/clients/codex/index.js';
import { join } from 'node:path';
import { SERVERS, removeTempDirs } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { notesCalls, observeCodex, serverTable, type CodexCase } from './codex-harness.js';
import { pooled } from './harness.js';

const skip = process.env.SKIP_ORACLES === '1';
// The matrix below writes rules as it is built: the parser is loaded first.
await codex.load?.();
afterAll(removeTempDirs);

const CONFIGURABLE = join(SERVERS, 'configurable.mjs');
const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
const NOTES = serverTable('notes');
const tool = (name: string, approval: string) =>
  `[mcp_servers.notes.tools.${name}]\napproval_mode = "${approval}"\n`;

interface Row extends CodexCase {
  /** The server key as the committed file and the class list write it (default notes). */
  key?: string;
  /** The tools, with their declared hints (default: the notes tools). */
  tools?: ClientTool[];
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
  const spec = JSON.stringify({
    name: 'hints',
    tools: specs.map((s) => ({ ...s, description: 'x' })),
  });
  return {
    key: 'hints',
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
  ['no approval settings: auto from the annotations', { project: NOTES }],
  ['default prompt', { project: `${NOTES}default_tools_approval_mode = "prompt"\n` }],
  ['default writes', { project: `${NOTES}default_tools_approval_mode = "writes"\n` }],
  ['default approve', { project: `${NOTES}default_tools_approval_mode = "approve"\n` }],
  ['default auto, written', { project: `${NOTES}default_tools_approval_mode = "auto"\n` }],
  [
    'per-tool overrides over a prompt default',
    {
      project: `${NOTES}default_tools_approval_mode = "prompt"\n${tool('add_note', 'approve')}${tool('delete_note', 'auto')}`,
    },
  ],
  [
    'per-tool prompt over an approve default',
    {
      project: `${NOTES}default_tools_approval_mode = "approve"\n${tool('delete_note', 'prompt')}`,
    },
  ],
  [
    'dotted keys and an inline table',
    {
      project: `${NOTES}tools.delete_note.approval_mode = "approve"\ntools.add_note = { approval_mode = "prompt" }\n`,
    },
  ],
  [
    'enabled_tools, and disabled_tools over it',
    {
      project: `${NOTES}enabled_tools = ["list_notes", "delete_note"]\ndisabled_tools = ["delete_note"]\n`,
    },
  ],
  ['disabled_tools alone', { project: `${NOTES}disabled_tools = ["add_note", "gone"]\n` }],
  ['an empty enabled_tools', { project: `${NOTES}enabled_tools = []\n` }],
  [
    'enabled = false',
    { project: `${NOTES}enabled = false\ndefault_tools_approval_mode = "approve"\n` },
  ],
  [
    'keys Codex ignores: a server-level approval_mode, a tool-level enabled',
    {
      project: `${NOTES}approval_mode = "approve"\ndefault_tools_enabled = false\n[mcp_servers.notes.tools.delete_note]\nenabled = false\n`,
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
    { user: NOTES, project: `${tool('delete_note', 'approve')}${tool('list_notes', 'prompt')}` },
  ],
  [
    'the project default beats the user default for the same server',
    {
      user: `${NOTES}default_tools_approval_mode = "approve"\n`,
      project: '[mcp_servers.notes]\ndefault_tools_approval_mode = "writes"\n',
    },
  ],
  [
    'rules --client codex --write with no file (the server in the user config)',
    { user: NOTES, project: codex.writeRules(undefined, notesTools(), MAPPING) },
  ],
  [
    'rules --client codex --write into a file with the server and an approve default',
    {
      project: codex.writeRules(
        `# committed\n${NOTES}default_tools_approval_mode = "approve"\n`,
        notesTools(),
        MAPPING,
      ),
    },
  ],
  ['every hint combination, auto', hintsServer('auto')],
  ['every hint combination, writes', hintsServer('writes')],
];

/** What the model decides for each tool of the row, by the name Codex shows. */
function predicted(row: Row): Record<string, ClientDecision> {
  const state = codex.read(
    row.project === undefined ? [] : [{ path: codex.rulesFile, text: row.project }],
  );
  const key = row.key ?? 'notes';
  const tools = row.tools ?? notesTools(key);
  return Object.fromEntries(
    tools.map((t) => [codex.fullName(key, t.tool), codex.decide(state, t).decision]),
  );
}

// Four cases at once: each is Codex and two example servers, a few seconds.
const slot = pooled(4);

describe
  .skipIf(skip)
  .concurrent('the real Codex CLI agrees with the Codex model', { timeout: 300_000 }, () => {
    it('with the rules the class list maps to: list_notes runs, add_note and delete_note ask', async () => {
      const project = codex.writeRules(undefined, notesTools(), MAPPING);
      const seen = await slot(() => observeCodex({ user: NOTES, project }));
      expect(seen).toEqual({
        mcp__notes__list_notes: 'allow',
        mcp__notes__add_note: 'ask',
        mcp__notes__delete_note: 'ask',
      });
    });

    it.each(MATRIX)('with %s', async (_name, row) => {
      const calls =
        row.calls ??
        (row.tools
          ? row.tools.map((t) => ({ name: codex.fullName(row.key ?? 'notes', t.tool), input: {} }))
          : undefined);
      const seen = await slot(() => observeCodex({ ...row, ...(calls ? { calls } : {}) }));
      expect(predicted(row)).toEqual(seen);
    });
  });
