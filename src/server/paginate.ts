// Every page of `tools/list`, through whichever connection, with caps on pages, tools and bytes
// and a stop on a cursor that repeats.
import * as z from 'zod/v4';
import type { Client } from '@modelcontextprotocol/client';
import { AuditError } from '../errors.js';
import { lazily } from '../lazy.js';
import { plural } from '../core/text.js';
import { MAX_LISTING, type Connection, type ListLimits } from './connection.js';
import { inert } from './output.js';

/** Only the shape we page through; tools stay raw here so one bad tool cannot hide the others. */
const pageSchema = lazily(() =>
  z.looseObject({
    tools: z.array(z.unknown()),
    nextCursor: z.string().optional(),
  }),
);

/** The tools of every page, as sent. */
export interface Pages {
  rawTools: unknown[];
  pages: number;
}

/** Refuses a page past the caps, before and after it is read. */
function checkCaps(pages: Pages, connection: Connection, limits: ListLimits, total: number): void {
  if (total > limits.maxTools)
    throw new AuditError(
      `The server listed more than ${limits.maxTools} tools: the listing was stopped after ${plural(pages.pages, 'page')} and ${plural(total, 'tool')}.`,
      'Raise --max-tools (maxTools in the config file) if the server really has that many.',
    );
  if (connection.received > MAX_LISTING)
    throw new AuditError(
      `The server sent more than ${MAX_LISTING / 1024 / 1024} MiB of tool listings: the listing was stopped after ${plural(pages.pages, 'page')} and ${plural(total, 'tool')}.`,
      'Check what the server puts in its tools (a description is a few sentences; the audit keeps the first 4,000 characters of one).',
    );
}

/** Lists every page of tools; `connection.progress` follows, for messages. */
export async function paginate(
  client: Client,
  connection: Connection,
  limits: ListLimits,
): Promise<Pages> {
  const pages: Pages = { rawTools: [], pages: 0 };
  const deadline = Date.now() + limits.listTimeoutMs;
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    if (pages.pages >= limits.maxPages)
      throw new AuditError(
        `The server has more than ${limits.maxPages} pages of tools: the listing was stopped after ${plural(pages.pages, 'page')} and ${plural(pages.rawTools.length, 'tool')}, with cursor ${JSON.stringify((cursor ?? '').slice(0, 80))} still to follow.`,
        'Raise --max-pages (maxPages in the config file) if the server really has that many.',
      );
    const remaining = Math.max(1, deadline - Date.now());
    const page = await connection.race(
      client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        pageSchema(),
        { timeout: remaining, maxTotalTimeout: remaining },
      ),
    );
    pages.pages += 1;
    // Counted before they are kept, one by one: a spread of a page of 130,000 tools overflows
    // the stack.
    const total = pages.rawTools.length + page.tools.length;
    connection.progress.pages = pages.pages;
    connection.progress.tools = total;
    checkCaps(pages, connection, limits, total);
    for (const tool of page.tools) pages.rawTools.push(tool);
    cursor = page.nextCursor;
    if (cursor === undefined) break;
    if (cursors.has(cursor))
      throw new AuditError(
        `The server's pagination loops: page ${pages.pages + 1} would repeat cursor ${JSON.stringify(inert(cursor.slice(0, 80)))}. The listing was stopped after ${plural(pages.pages, 'page')} and ${plural(pages.rawTools.length, 'tool')}.`,
        'Fix the server so each nextCursor leads to a new page, and the last page has none.',
      );
    cursors.add(cursor);
  }
  return pages;
}
