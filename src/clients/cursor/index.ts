import { loadJsonText } from '../../core/jsontext.js';
import type { Client } from '../client.js';
import {
  ALLOWLIST,
  CURSOR_MCP,
  CURSOR_PERMISSIONS,
  cursorName,
  decideCursor,
  readCursor,
  type CursorState,
} from './model.js';
import { cursorProblems } from './problems.js';
import { writeCursorRules } from './write.js';

/*
 * Cursor: a repository's .cursor/mcp.json and .cursor/permissions.json. Modelled from Cursor's
 * documentation only: Cursor does not run here, so no oracle checks this model, and the PR
 * comment says its decisions are "from their documentation" (verified: 'documentation').
 */

export const cursor: Client<CursorState> = {
  id: 'cursor',
  label: 'Cursor',
  verified: 'documentation',
  projectFiles: [CURSOR_MCP, CURSOR_PERMISSIONS],
  fullName: cursorName,
  // Both files are JSON with comments, read through jsonc-parser, a chunk loaded for client files.
  load: loadJsonText,
  read: readCursor,
  configures: (state) => state.servers.size > 0 || state.listing.length > 0,
  decide: decideCursor,
  problems: cursorProblems,
  rulesFile: CURSOR_PERMISSIONS,
  writeRules: (existing, tools, mapping, path = CURSOR_PERMISSIONS) =>
    writeCursorRules(existing, tools, mapping, path),
  notes: [
    `Each read tool gets an exact <server>:<tool> entry in ${ALLOWLIST}; edit and delete tools get none, so Cursor asks before each call. Cursor has no rule that refuses a tool: a delete tool asks too, and an entry such as "notes:*" that would let one run is refused for you to narrow.`,
    `Cursor joins this file's ${ALLOWLIST} with the user's ~/.cursor/permissions.json, and a list in either replaces the allowlist in Cursor's settings; a team admin's auto-run controls override both.`,
    'An allowlisted tool runs unasked only while auto-run uses the allowlist; "Ask every time" asks for it too.',
    'From Cursor’s documentation only: no Cursor runs in the test suite to check it.',
  ],
};
