// The real opencode is the oracle for check's opencode verdicts: for each committed config below,
// in a temporary repository, check predicts what opencode does with each tool
// (tools[].clients.opencode of its JSON report), and the real binary, a session in the same
// repository, calls the tools: what it did with each (ran, asked, did not offer it) must be that
// prediction. Skipped with SKIP_ORACLES=1.
import { afterAll, describe, it } from 'vitest';
import { removeTempDirs } from '../support/cli.js';
import { notesTools } from '../support/client-tools.js';
import { NOTES, decisions, expectPredicted, predict, repository, writtenRules } from './harness.js';
import { observeOpencode, type OpencodeCase } from './opencode-harness.js';

const skip = process.env.SKIP_ORACLES === '1';
afterAll(removeTempDirs);

const FILE = 'opencode.json';
const permission = (rules: Record<string, unknown> | string) =>
  JSON.stringify({ permission: rules }, null, 2);

interface Row extends OpencodeCase {
  /**
   * opencode.json is then what `rules --client opencode --write opencode.json` leaves, run by the
   * built CLI in the repository over `files` with the example's class list.
   */
  rules?: true;
}

/** Committed configs, each verified on the binary: [what it shows, the case]. */
const MATRIX: [string, Row][] = [
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
  ['rules --client opencode --write with no file', { files: {}, rules: true }],
  [
    'rules --client opencode --write over broad keys and a stale exact allow',
    {
      files: {
        [FILE]:
          '{\n  // committed\n  "permission": {\n    "notes_delete_note": "allow",\n    "*": "allow",\n    "notes_*": "allow"\n  }\n}\n',
      },
      rules: true,
    },
  ],
];

/**
 * What check predicts: opencode's verdict per tool, a tool not offered (a disabled server's) as a
 * denied one, the same from outside. Where no committed file configures opencode (an empty
 * opencode.json), check judges nothing, and opencode runs every tool unasked, as check's
 * `rules --client opencode` notes say.
 */
function observable(predicted: Record<string, string> | undefined) {
  if (!predicted) return Object.fromEntries(notesTools().map((t) => [t.tool, 'allow']));
  return Object.fromEntries(
    Object.entries(predicted).map(([tool, d]) => [tool, d === 'hidden' ? 'deny' : d]),
  );
}

/** Every case's repository, check's prediction there, and what opencode did: run once for all. */
let all: Promise<{ predicted: Record<string, string>; seen: Record<string, string> }[]> | undefined;
const judged = () =>
  (all ??= (async () => {
    const cases = MATRIX.map(([, c]) => c);
    const dirs = await Promise.all(
      cases.map(async (c) => {
        const dir = await repository(c.files);
        if (c.rules) await writtenRules(dir, 'opencode', FILE);
        return dir;
      }),
    );
    const [predictions, seen] = await Promise.all([
      Promise.all(
        cases.map((c, i) =>
          predict(dirs[i] as string, [{ ...NOTES, key: c.servers?.[0] ?? 'notes' }]),
        ),
      ),
      observeOpencode(cases.map((c, i) => ({ dir: dirs[i] as string, c }))),
    ]);
    return cases.map((_, i) => ({
      predicted: observable(decisions(predictions[i]?.servers[0], 'opencode')),
      seen: seen[i] as Record<string, string>,
    }));
  })());

// The timeout is a hang guard: every case waits for the one run of them all.
describe
  .skipIf(skip)
  .concurrent('the real opencode does what check predicts', { timeout: 600_000 }, () => {
    it.each(MATRIX.map(([name], i) => [name, i] as const))('with %s', async (_name, i) => {
      const { predicted, seen } = (await judged())[i] as Awaited<ReturnType<typeof judged>>[number];
      expectPredicted(predicted, seen);
    });
  });
