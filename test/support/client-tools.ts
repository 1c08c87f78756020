// The example notes server's tools as a client model sees them (src/clients/client.ts), read from
// the repository's class list: the same tools the oracles run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientTool } from '../../src/clients/client.js';
import { parseClassList } from '../../src/core/classlist.js';
import { HINT_NAMES } from '../../src/core/tools.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** list_notes, add_note and delete_note, under server key `server`. */
export function notesTools(server = 'notes'): ClientTool[] {
  const path = join(ROOT, 'mcp-tool-classes.json');
  const list = parseClassList(readFileSync(path, 'utf8'), path);
  return [...list.tools.values()].map((r) => ({
    server,
    tool: r.tool,
    class: r.class,
    declared: Object.fromEntries(
      HINT_NAMES.flatMap((h) => (r.hints[h] === 'absent' ? [] : [[h, r.hints[h]]])),
    ),
  }));
}

/** A tool with the given declared hints (class edit unless said). */
export function toolWith(
  declared: ClientTool['declared'],
  tool = 't',
  klass: ClientTool['class'] = 'edit',
): ClientTool {
  return { server: 'notes', tool, class: klass, declared };
}

/** The same tools in class order: list_notes (read), add_note (edit), delete_note (delete). */
export function notesByClass(server = 'notes'): ClientTool[] {
  const order = ['read', 'edit', 'delete'];
  return notesTools(server).sort((a, b) => order.indexOf(a.class) - order.indexOf(b.class));
}
