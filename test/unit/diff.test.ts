import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../src/core/classify.js';
import { toRecord, type ToolRecord } from '../../src/core/classlist.js';
import {
  changeFindings,
  diffRecords,
  driftFindings,
  isDescriptionOrSchemaOnly,
  isSchemaOnly,
} from '../../src/core/diff.js';
import type { ListedTool } from '../../src/core/tools.js';

function records(...tools: ListedTool[]): Map<string, ToolRecord> {
  return new Map(tools.map((t) => [`mcp__s__${t.name}`, toRecord('s', classifyTool(t))]));
}

const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });

describe('diffRecords and changeFindings', () => {
  it('nothing changed, nothing reported', () => {
    const a = records({ name: 'x', annotations: { readOnlyHint: true } });
    expect(diffRecords(a, a)).toEqual([]);
  });

  it('a hint going from declared to absent is dropped even when the default equals it', () => {
    const before = records({
      name: 'x',
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    const after = records({ name: 'x', annotations: { readOnlyHint: false } });
    const rules = changeFindings(diffRecords(before, after)).map((f) => f.rule);
    expect(rules).toEqual(['hint-dropped']);
  });

  it('relaxed, escalated and reach-opened', () => {
    const before = records(
      { name: 'a', annotations: { destructiveHint: true } },
      { name: 'b', annotations: { readOnlyHint: true, openWorldHint: false } },
    );
    const after = records(
      { name: 'a', annotations: { destructiveHint: false } },
      {
        name: 'b',
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      },
    );
    expect(changeFindings(diffRecords(before, after)).map((f) => `${f.rule}:${f.tool}`)).toEqual([
      'class-relaxed:a',
      'class-escalated:b',
      'reach-opened:b',
    ]);
  });

  it('a removed and an added tool with one schema are a rename; two candidates are not', () => {
    const before = records(
      { name: 'old', inputSchema: schema('id') },
      { name: 'gone', inputSchema: schema('q') },
    );
    const after = records(
      { name: 'new', inputSchema: schema('id') },
      { name: 'fresh', inputSchema: schema('z') },
    );
    expect(diffRecords(before, after).map((c) => `${c.kind}:${c.tool}`)).toEqual([
      'added:fresh',
      'removed:gone',
      'renamed:new',
    ]);
    const twins = records(
      { name: 'n1', inputSchema: schema('id') },
      { name: 'n2', inputSchema: schema('id') },
    );
    expect(
      diffRecords(records({ name: 'old', inputSchema: schema('id') }), twins).map((c) => c.kind),
    ).toEqual(['added', 'added', 'removed']);
  });
  it('a rename with a new schema that drops a hint the class is not read from is a probable rename', () => {
    const hints = { readOnlyHint: false, destructiveHint: true };
    const before = records({
      name: 'delete_note',
      inputSchema: schema('id'),
      annotations: { ...hints, idempotentHint: true },
    });
    const after = records({ name: 'remove_note', inputSchema: schema('key'), annotations: hints });
    const changes = diffRecords(before, after);
    expect(changes.map((c) => `${c.kind}:${c.tool}:${c.probable}`)).toEqual([
      'renamed:remove_note:true',
    ]);
    // The schema moved with the rename: the pinned one differs too.
    expect(changeFindings(changes).map((f) => f.rule)).toEqual([
      'tool-renamed',
      'hint-dropped',
      'schema-changed',
    ]);
  });
});

describe('which removed tool an added one replaced: the worst case is judged', () => {
  const DELETE = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
  const EDIT = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  const READ = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  const summary = (before: Map<string, ToolRecord>, after: Map<string, ToolRecord>) => {
    const changes = diffRecords(before, after);
    return {
      changes: changes.map((c) => `${c.kind}:${c.renamedFrom?.slice(8) ?? ''}>${c.tool}`),
      errors: changeFindings(changes)
        .filter((f) => f.severity === 'error')
        .map((f) => `${f.rule}:${f.tool}`),
    };
  };

  it('a second tool removed beside a delete tool cannot take its read-only successor', () => {
    const before = records(
      { name: 'archive_note', inputSchema: schema('why'), annotations: EDIT },
      { name: 'delete_note', inputSchema: schema('id'), annotations: DELETE },
    );
    const after = records({
      name: 'delete_note_v2',
      inputSchema: schema('note'),
      annotations: READ,
    });
    expect(summary(before, after)).toEqual({
      changes: ['removed:>archive_note', 'renamed:delete_note>delete_note_v2'],
      errors: ['class-relaxed:delete_note_v2'],
    });
  });

  it("a read-only successor on a removed read tool's schema is still judged against the delete tool", () => {
    const noArgs = { type: 'object', properties: {} };
    const before = records(
      { name: 'list_notes', inputSchema: noArgs, annotations: READ },
      { name: 'delete_note', inputSchema: schema('id'), annotations: DELETE },
    );
    const after = records({ name: 'delete_note_v2', inputSchema: noArgs, annotations: READ });
    const changes = diffRecords(before, after);
    expect(summary(before, after)).toEqual({
      changes: ['removed:>delete_note', 'renamed:list_notes>delete_note_v2'],
      errors: ['class-relaxed:delete_note'],
    });
    expect(changeFindings(changes).find((f) => f.rule === 'class-relaxed')?.message).toBe(
      'Removed while delete_note_v2 (read) came in the same change: if it replaces this tool, the class relaxed from delete to read: clients will auto-approve what they used to ask about.',
    );
    // A plain rename on the same schema, the delete tool removed beside it: the same input, so
    // judged the same (the approval label accepts it once a reviewer has read it).
    const renamed = records({ name: 'search_notes', inputSchema: noArgs, annotations: READ });
    expect(summary(before, renamed)).toEqual({
      changes: ['removed:>delete_note', 'renamed:list_notes>search_notes'],
      errors: ['class-relaxed:delete_note'],
    });
    // With the delete tool kept, the same schema is a plain rename.
    const kept = records(
      { name: 'list_all', inputSchema: noArgs, annotations: READ },
      { name: 'delete_note', inputSchema: schema('id'), annotations: DELETE },
    );
    expect(summary(before, kept)).toEqual({ changes: ['renamed:list_notes>list_all'], errors: [] });
    // A delete tool removed beside a newcomer that is no lower: a plain removal.
    const deleting = records({ name: 'erase_all', inputSchema: noArgs, annotations: DELETE });
    expect(summary(before, deleting).errors).toEqual([]);
  });

  it('a schema pair stands beside a removal that has a successor of its own', () => {
    const before = records(
      { name: 'old', inputSchema: schema('y'), annotations: DELETE },
      { name: 'del', inputSchema: schema('z'), annotations: { ...DELETE, idempotentHint: true } },
    );
    // `new` would drop two of del's hints and one of old's; erase relaxes del more still.
    const after = records(
      {
        name: 'new',
        inputSchema: schema('y'),
        annotations: { ...DELETE, openWorldHint: undefined },
      },
      { name: 'erase', inputSchema: schema('w'), annotations: EDIT },
    );
    const changes = diffRecords(before, after);
    expect(
      changes.map((c) => `${c.renamedFrom?.slice(8)}>${c.tool}:${c.probable ?? false}`),
    ).toEqual(['del>erase:true', 'old>new:false']);
  });

  it("a newcomer on a decoy's schema is judged for the hints it would drop of the removed tool", () => {
    const before = records(
      {
        name: 'delete_note',
        inputSchema: schema('id'),
        annotations: { ...DELETE, idempotentHint: true },
      },
      { name: 'purge_cache', inputSchema: schema('key'), annotations: { readOnlyHint: false } },
    );
    const after = records({
      name: 'delete_note_v2',
      inputSchema: schema('key'),
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    expect(summary(before, after)).toEqual({
      changes: ['removed:>delete_note', 'renamed:purge_cache>delete_note_v2'],
      errors: ['hint-dropped:delete_note'],
    });
  });

  it('a kept tool whose input schema changed is a newcomer; one whose description alone changed is not', () => {
    const list = { name: 'list_notes', inputSchema: schema('q'), annotations: READ };
    const before = records(list, {
      name: 'delete_note',
      inputSchema: schema('id'),
      annotations: DELETE,
    });
    const absorbed = records({ ...list, inputSchema: schema('id') });
    expect(summary(before, absorbed).errors).toEqual(['class-relaxed:delete_note']);
    const reworded = records({ ...list, description: 'Lists the notes, newest first.' });
    expect(summary(before, reworded).errors).toEqual([]);
  });

  it('a decoy more alike by name does not take the successor that relaxes the delete tool most', () => {
    const before = records({ name: 'delete_note', inputSchema: schema('id'), annotations: DELETE });
    const after = records(
      { name: 'delete_notes', inputSchema: schema('ids'), annotations: EDIT },
      { name: 'purge', inputSchema: schema('all'), annotations: READ },
    );
    expect(summary(before, after)).toEqual({
      changes: ['added:>delete_notes', 'renamed:delete_note>purge'],
      errors: ['class-relaxed:purge'],
    });
  });
});

describe('renames and reasons', () => {
  const noArgs = { type: 'object', properties: {} };
  const reason = 'Read-only; safe to allow without asking.';
  const withReason = (list: Map<string, ToolRecord>, key: string) => {
    const record = list.get(key);
    if (record) record.reason = reason;
    return list;
  };

  it('a rename that raises the class says its reason is not carried over, and why', () => {
    // Every tool without arguments shares one schema hash: a read tool gone and a delete tool new.
    const before = withReason(
      records({ name: 'list_notes', inputSchema: noArgs, annotations: { readOnlyHint: true } }),
      'mcp__s__list_notes',
    );
    const after = records({
      name: 'purge_notes',
      inputSchema: noArgs,
      annotations: { readOnlyHint: false, destructiveHint: true },
    });
    const changes = diffRecords(before, after);
    expect(changes.map((c) => `${c.kind}:${c.tool}`)).toEqual(['renamed:purge_notes']);
    const renamed = changeFindings(changes).find((f) => f.rule === 'tool-renamed');
    expect(renamed?.message).toBe(
      'Renamed from list_notes (same input schema); its reason is not carried over because the class rose from read to delete: review the tool and give it a new reason.',
    );
    const [drift] = driftFindings(changes, 'update', 'c.json');
    expect(drift?.message).toContain(
      'is served under a new name (was list_notes); its reason is not carried over because the class rose from read to delete',
    );
  });

  it('a rename that keeps or lowers the class still carries the reason over, and says so', () => {
    const before = withReason(
      records({ name: 'list_notes', inputSchema: noArgs, annotations: { readOnlyHint: true } }),
      'mcp__s__list_notes',
    );
    const after = records({
      name: 'all_notes',
      inputSchema: noArgs,
      annotations: { readOnlyHint: true },
    });
    const changes = diffRecords(before, after);
    expect(changeFindings(changes).map((f) => f.message)).toEqual([
      'Renamed from list_notes (same input schema); its reason is carried over.',
    ]);
    expect(driftFindings(changes, 'update', 'c.json')[0]?.message).toContain(
      '(was list_notes); update carries its reason over',
    );
  });
});

describe('drift of the input schema', () => {
  const before = records({
    name: 'x',
    inputSchema: schema('id'),
    annotations: { readOnlyHint: true },
  });
  const wider = records({
    name: 'x',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' }, tag: { type: 'string' } },
    },
    annotations: { readOnlyHint: true },
  });

  it('a schema-only change leaves the class surface as it was, and shows the paths that changed', () => {
    const changes = diffRecords(before, wider);
    expect(changes).toMatchObject([
      { kind: 'changed', tool: 'x', hints: [], inputSchemaChanged: { paths: ['properties.tag'] } },
    ]);
    expect(changes.every(isDescriptionOrSchemaOnly)).toBe(true);
    expect(changeFindings(changes).map((f) => f.rule)).toEqual(['schema-changed']);
  });

  it('a class list written before pins compares as before: no schema or description change', () => {
    const unpinned = new Map([...before].map(([k, r]) => [k, { ...r, pin: undefined }]));
    const rewritten = records({
      name: 'x',
      description: 'Now also emails the result.',
      inputSchema: wider.get('mcp__s__x')?.pin?.inputSchema
        ? (JSON.parse(wider.get('mcp__s__x')?.pin?.inputSchema ?? '{}') as object)
        : {},
      annotations: { readOnlyHint: true },
    });
    expect(diffRecords(unpinned, rewritten)).toEqual([]);
  });

  it('against HEAD it is drift at notice severity, saying update keeps renames recognised', () => {
    const changes = diffRecords(before, wider, { schema: true });
    expect(changes).toMatchObject([{ kind: 'changed', tool: 'x', schemaChanged: true }]);
    expect(changes.every(isSchemaOnly)).toBe(true);
    expect(driftFindings(changes, 'npx mcp-annotation-auditor update', 'c.json')).toEqual([
      {
        rule: 'unrecorded-change',
        severity: 'notice',
        tool: 'x',
        message:
          "The live tool's input schema differs from the one the class list records (hints, class and title are unchanged).",
        fix: 'Run `npx mcp-annotation-auditor update` and commit c.json: the recorded schema is how a later rename of the tool is recognised (and its reason carried over).',
      },
    ]);
  });

  it('with another change too, it is one error that also names the schema', () => {
    const dropped = records({ name: 'x', inputSchema: schema('q'), annotations: {} });
    const changes = diffRecords(before, dropped, { schema: true });
    expect(changes.some(isSchemaOnly)).toBe(false);
    const [drift] = driftFindings(changes, 'update', 'c.json');
    expect(drift?.severity).toBe('error');
    expect(drift?.message).toMatch(/; input schema changed\.$/);
  });
});

describe('drift of a title', () => {
  it('the same text moved from annotations.title to Tool.title says where it moved', () => {
    const before = records({ name: 'add_note', annotations: { title: 'Add note' } });
    const after = records({
      name: 'add_note',
      title: 'Add note',
      annotations: { title: 'Add note' },
    });
    const [drift] = driftFindings(diffRecords(before, after), 'update', 'c.json');
    expect(drift?.message).toBe(
      'The live tool differs from the class list: title "Add note" moved from annotations.title to Tool.title.',
    );
    const renamed = records({ name: 'add_note', title: 'Add a note' });
    expect(driftFindings(diffRecords(before, renamed), 'update', 'c.json')[0]?.message).toBe(
      'The live tool differs from the class list: title "Add note" (annotations.title) -> "Add a note" (Tool.title).',
    );
  });
});
