// The real opencode is the oracle for the opencode client model (src/clients/opencode/): for each
// committed config below it calls the notes tools, and what it did with each (ran, refused an
// "ask", did not offer it) must be what the model decides. Skipped with SKIP_ORACLES=1.
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientDecision } from '../../src/clients/client.js';
import { opencode } from '../../src/clients/opencode/index.js';
import { removeTempDirs } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { pooled } from './harness.js';
import { notesCalls, observeOpencode, type OpencodeCase } from './opencode-harness.js';

const skip = process.env.SKIP_ORACLES === '1';
// The matrix below writes rules as it is built: the JSON position parser is loaded first.
await opencode.load?.();
afterAll(removeTempDirs);

const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
const FILE = 'opencode.json';
const permission = (rules: Record<string, unknown> | string) =>
  JSON.stringify({ permission: rules }, null, 2);

/** Committed configs, each verified on the binary: [what it shows, the case]. */
const MATRIX: [string, OpencodeCase][] = [
  ['no permission key: every tool runs unasked', { files: { [FILE]: '{}\n' } }],
  ['"*": "allow"', { files: { [FILE]: permission({ '*': 'allow' }) } }],
  ['"*": "ask"', { files: { [FILE]: permission({ '*': 'ask' }) } }],
  ['"*": "deny"', { files: { [FILE]: permission({ '*': 'deny' }) } }],
  ['permission: "ask" (every tool)', { files: { [FILE]: permission('ask') } }],
  [
    'per-tool keys',
    { files: { [FILE]: permission({ notes_add_note: 'ask', notes_delete_note: 'deny' }) } },
  ],
  [
    'a broad deny, then a narrower allow (the allow is last)',
    { files: { [FILE]: permission({ 'notes_*': 'deny', 'notes_list_*': 'allow' }) } },
  ],
  [
    'a narrower allow, then a broad deny (the deny is last)',
    { files: { [FILE]: permission({ 'notes_list_*': 'allow', 'notes_*': 'deny' }) } },
  ],
  [
    '? is one character, case counts, a key matches the whole name',
    {
      files: {
        [FILE]: permission({
          'notes_?dd_note': 'ask',
          NOTES_DELETE_NOTE: 'deny',
          notes_list: 'deny',
        }),
      },
    },
  ],
  [
    'object values: {"*": "deny"} applies, {"x *": "deny"} never matches an MCP call',
    {
      files: {
        [FILE]: permission({
          notes_delete_note: { '*': 'deny' },
          notes_add_note: { 'x *': 'deny' },
        }),
      },
    },
  ],
  [
    'the older tools map, weighed before every permission key',
    {
      files: {
        [FILE]: JSON.stringify({
          tools: { notes_delete_note: false, notes_add_note: false },
          permission: { notes_add_note: 'ask' },
        }),
      },
    },
  ],
  [
    'server key my.notes: tools my_notes_*, a key with the dot matches nothing',
    {
      servers: ['my.notes'],
      files: {
        [FILE]: permission({ 'my.notes_delete_note': 'deny', my_notes_add_note: 'ask' }),
      },
    },
  ],
  [
    'server key My-No.tes: - and case kept, . written as _',
    {
      servers: ['My-No.tes'],
      files: { [FILE]: permission({ 'My-No_tes_delete_note': 'deny', 'my-no_tes_*': 'ask' }) },
    },
  ],
  [
    'comments and a trailing comma in opencode.json',
    {
      files: {
        [FILE]:
          '// the team’s rules\n{\n  /* refuse deletes */\n  "permission": {\n    "notes_delete_note": "deny",\n    "notes_add_note": "ask", // edits ask\n  },\n}\n',
      },
    },
  ],
  [
    'opencode.jsonc alone',
    { files: { 'opencode.jsonc': '{\n  // jsonc\n  "permission": { "notes_*": "ask" }\n}\n' } },
  ],
  [
    'opencode.jsonc and opencode.json: merged key by key, a key keeping its first place',
    {
      files: {
        'opencode.jsonc': permission({ notes_add_note: 'ask' }),
        [FILE]: permission({ 'notes_*': 'deny', notes_add_note: 'allow' }),
      },
    },
  ],
  [
    'opencode.json, .opencode/opencode.json and .opencode/opencode.jsonc, in that order',
    {
      files: {
        [FILE]: permission({ notes_list_notes: 'ask', 'notes_*': 'ask' }),
        '.opencode/opencode.json': permission({ notes_list_notes: 'deny', notes_add_note: 'ask' }),
        '.opencode/opencode.jsonc': permission({
          notes_list_notes: 'allow',
          notes_add_note: 'deny',
        }),
      },
    },
  ],
  [
    'rules --client opencode --write with no file',
    { files: { [FILE]: opencode.writeRules(undefined, notesTools(), MAPPING) } },
  ],
  [
    'rules --client opencode --write over broad keys and a stale exact allow',
    {
      files: {
        [FILE]: opencode.writeRules(
          '{\n  // committed\n  "permission": {\n    "notes_delete_note": "allow",\n    "*": "allow",\n    "notes_*": "allow"\n  }\n}\n',
          notesTools(),
          MAPPING,
        ),
      },
    },
  ],
];

/** What the model decides for each call of the case, by the name opencode shows. */
function predicted(c: OpencodeCase): Record<string, ClientDecision> {
  const state = opencode.read(
    opencode.projectFiles.flatMap((path) =>
      c.files[path] === undefined ? [] : [{ path, text: c.files[path] }],
    ),
  );
  const key = c.servers?.[0] ?? 'notes';
  return Object.fromEntries(
    notesTools(key).map((t) => {
      const { decision } = opencode.decide(state, t);
      // A disabled server's tools are not offered, as a denied tool is not: the same from outside.
      return [opencode.fullName(key, t.tool), decision === 'hidden' ? 'deny' : decision];
    }),
  );
}

// Six cases at once: each is opencode and one example server, a few seconds of CPU.
const slot = pooled(6);

describe
  .skipIf(skip)
  .concurrent('the real opencode agrees with the opencode model', { timeout: 300_000 }, () => {
    it.each(MATRIX)('with %s', async (_name, c) => {
      const calls = c.calls ?? notesCalls(c.servers?.[0]);
      const seen = await slot(() => observeOpencode({ ...c, calls }));
      expect(predicted(c)).toEqual(seen);
    });
  });
