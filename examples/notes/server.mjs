#!/usr/bin/env node
// The notes server from the annotations guide: three tools, one per class, every hint and a
// title declared even where it equals the default. The README quick start audits this server.
// With --read-only it serves only list_notes: the same server in another toolset mode.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const readOnly = process.argv.includes('--read-only');

/** @type {{ id: number, title: string, body: string }[]} */
const notes = [];

function createServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });

  server.registerTool(
    'list_notes',
    {
      description: 'List every saved note with its id and title.',
      annotations: {
        title: 'List notes',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async () => ({
      content: [
        {
          type: 'text',
          text: notes.length
            ? notes.map((n) => `${n.id}: ${n.title}`).join('\n')
            : 'No notes saved.',
        },
      ],
    }),
  );

  if (readOnly) return server;

  server.registerTool(
    'add_note',
    {
      description: 'Save a new note. Use this when the user asks to write something down.',
      inputSchema: z.object({
        title: z.string().describe('Short title for the note'),
        body: z.string().describe('Text of the note'),
      }),
      annotations: {
        title: 'Add note',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ title, body }) => {
      const id = Math.max(0, ...notes.map((n) => n.id)) + 1;
      notes.push({ id, title, body });
      return { content: [{ type: 'text', text: `Added note ${id}: '${title}'.` }] };
    },
  );

  server.registerTool(
    'delete_note',
    {
      description: 'Permanently delete a note by id. This cannot be undone.',
      inputSchema: z.object({
        note_id: z.number().int().describe('Id of the note to delete, from list_notes'),
      }),
      annotations: {
        title: 'Delete note',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ note_id }) => {
      const index = notes.findIndex((n) => n.id === note_id);
      if (index < 0) return { content: [{ type: 'text', text: `No note with id ${note_id}.` }] };
      notes.splice(index, 1);
      return { content: [{ type: 'text', text: `Deleted note ${note_id}.` }] };
    },
  );

  return server;
}

// serveStdio answers both protocol eras from the same tool definitions.
serveStdio(createServer);
