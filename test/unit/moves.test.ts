import { describe, expect, it } from 'vitest';
import { classifyTool } from '../../src/core/classify.js';
import { toRecord, type ToolRecord } from '../../src/core/classlist.js';
import { changeFindings, diffRecords } from '../../src/core/diff.js';
import { movePairs, pairMoves, type MovableServer } from '../../src/core/moves.js';
import type { ListedTool } from '../../src/core/tools.js';

function records(server: string, ...tools: ListedTool[]): Map<string, ToolRecord> {
  return new Map(
    tools.map((t) => [`mcp__${server}__${t.name}`, toRecord(server, classifyTool(t))]),
  );
}

const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });
const destructive = (destructiveHint: boolean) => ({ readOnlyHint: false, destructiveHint });

/** Servers as check leaves them: each diffed against its own base records, with findings. */
function reports(
  ...servers: [string, Map<string, ToolRecord>, Map<string, ToolRecord>][]
): MovableServer[] {
  return servers.map(([server, base, live]) => {
    const changes = diffRecords(base, live);
    return { server, changes, findings: changeFindings(changes) };
  });
}

describe('movePairs', () => {
  it('pairs by tool name, then by schema, then by the probable-rename heuristic, only across servers', () => {
    const removed = new Map([
      ...records('a', { name: 'same', inputSchema: schema('x') }),
      ...records('a', { name: 'old', inputSchema: schema('y') }),
      ...records('a', { name: 'del', inputSchema: schema('z'), annotations: destructive(true) }),
    ]);
    const added = new Map([
      ...records('b', { name: 'same', inputSchema: schema('q') }),
      ...records('b', { name: 'new', inputSchema: schema('y') }),
      ...records('b', { name: 'erase', inputSchema: schema('w'), annotations: destructive(false) }),
    ]);
    expect(movePairs(removed, added)).toEqual([
      ['mcp__a__same', 'mcp__b__same'],
      ['mcp__a__old', 'mcp__b__new'],
      ['mcp__a__del', 'mcp__b__erase'],
    ]);
  });

  it('pairs nothing within one server, nor a name or schema two tools share', () => {
    const removed = new Map([
      ...records('a', { name: 'x', inputSchema: schema('s') }),
      ...records('c', { name: 'x', inputSchema: schema('s') }),
    ]);
    const added = new Map([
      ...records('a', { name: 'y', inputSchema: schema('t') }),
      ...records('b', { name: 'x', inputSchema: schema('s') }),
    ]);
    expect(movePairs(removed, added)).toEqual([]);
  });
});

describe('pairMoves', () => {
  it('turns removed here and added there into one move under the new server, with its findings', () => {
    const tool = { name: 'delete_note', inputSchema: schema('id') };
    const none = new Map<string, ToolRecord>();
    const servers = reports(
      ['notes', records('notes', { ...tool, annotations: destructive(true) }), none],
      ['notes2', none, records('notes2', { ...tool, annotations: destructive(false) })],
    );
    pairMoves(servers);
    const [notes, notes2] = servers as [MovableServer, MovableServer];
    expect(notes.changes).toEqual([]);
    expect(notes.findings).toEqual([]);
    expect(notes2.changes).toMatchObject([
      { kind: 'renamed', name: 'mcp__notes2__delete_note', renamedFrom: 'mcp__notes__delete_note' },
    ]);
    expect(notes2.changes[0]?.probable).toBeUndefined();
    expect(notes2.findings.map((f) => `${f.rule}:${f.severity}`)).toEqual([
      'tool-renamed:notice',
      'class-relaxed:error',
    ]);
    expect(notes2.findings[0]?.message).toMatch(
      /^Moved from server "notes" to server "notes2" \(same tool name\)/,
    );
  });
});

describe('a delete tool removed in one server beside a read newcomer in another', () => {
  const READ = { readOnlyHint: true, destructiveHint: false };
  const none = new Map<string, ToolRecord>();
  const deleteNote = {
    name: 'delete_note',
    inputSchema: schema('id'),
    annotations: destructive(true),
  };
  const read = (name: string, field: string) => ({
    name,
    inputSchema: schema(field),
    annotations: READ,
  });
  const errors = (servers: MovableServer[]) =>
    servers.flatMap((s) =>
      s.findings
        .filter((f) => f.severity === 'error')
        .map((f) => `${s.server}:${f.rule}:${f.tool}`),
    );

  it('is judged against it when a name pairs the newcomer with another tool (a move)', () => {
    const servers = reports(
      ['a', records('a', deleteNote, read('list_x', 'q')), none],
      ['b', none, records('b', read('list_x', 'key'))],
    );
    pairMoves(servers);
    expect(errors(servers)).toEqual(['a:class-relaxed:delete_note']);
  });

  it("is judged against it when the newcomer's own server pairs it by schema", () => {
    const servers = reports(
      ['a', records('a', deleteNote), none],
      ['b', records('b', read('list_x', 'q')), records('b', read('purge_v2', 'q'))],
    );
    pairMoves(servers);
    expect(errors(servers)).toEqual(['a:class-relaxed:delete_note']);
    // Moved once it pairs as a move, its removal is no longer judged alone.
    const moved = reports(
      ['a', records('a', deleteNote), none],
      ['b', none, records('b', deleteNote)],
    );
    pairMoves(moved);
    expect(errors(moved)).toEqual([]);
    // Nor when its own server had judged it against a successor there.
    const both = reports(
      ['a', records('a', deleteNote, read('list_x', 'q')), records('a', read('purge', 'q'))],
      ['b', none, records('b', deleteNote)],
    );
    expect(errors(both)).toEqual(['a:class-relaxed:delete_note']);
    pairMoves(both);
    expect(errors(both)).toEqual([]);
  });
});
