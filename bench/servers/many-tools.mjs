#!/usr/bin/env node
// node bench/servers/many-tools.mjs [count=10000] [pageSize=100]
// The benchmark's own synthetic server, used only when test/fixtures/servers/many-tools.mjs is
// missing: raw newline-delimited JSON-RPC over stdio, no SDK, `count` tools in pages of
// `pageSize` behind opaque cursors. Tool i cycles through read, edit, delete and undeclared
// shapes. Exits when stdin ends.
import { createInterface } from 'node:readline';

const count = Number(process.argv[2] ?? 10_000);
const pageSize = Number(process.argv[3] ?? 100);
if (!Number.isInteger(count) || count < 0 || !Number.isInteger(pageSize) || pageSize < 1) {
  process.stderr.write('usage: many-tools.mjs [count >= 0] [pageSize >= 1]\n');
  process.exit(2);
}

const width = String(Math.max(count - 1, 0)).length;
const inputSchema = {
  type: 'object',
  properties: { id: { type: 'string', description: 'Record id' } },
  required: ['id'],
};
const SHAPES = [
  [
    'get',
    { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ],
  ['peek', { readOnlyHint: true }],
  [
    'update',
    { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ],
  ['append', { readOnlyHint: false, destructiveHint: false }],
  [
    'delete',
    { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  ],
  ['purge', { destructiveHint: true, openWorldHint: true }],
  ['run', undefined],
  ['process', {}],
];

/** @param {number} i */
function tool(i) {
  const [verb, hints] = SHAPES[i % SHAPES.length];
  /** @type {Record<string, unknown>} */
  const wire = {
    name: `${verb}_record_${String(i).padStart(width, '0')}`,
    description: `${verb} a record (tool ${i} of ${count}).`,
    inputSchema,
  };
  if (hints !== undefined) wire.annotations = { title: `${verb} record ${i}`, ...hints };
  return wire;
}

const encodeCursor = (/** @type {number} */ offset) =>
  Buffer.from(`offset=${offset}`).toString('base64url');
/** @param {unknown} cursor */
function decodeCursor(cursor) {
  if (typeof cursor !== 'string') return undefined;
  const match = /^offset=(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** @param {unknown} message */
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  if (!message || typeof message !== 'object' || !('id' in message)) return; // a notification
  const { id, method, params } = message;
  if (method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'many-tools', version: '1.0.0' },
      },
    });
  } else if (method === 'ping') {
    send({ jsonrpc: '2.0', id, result: {} });
  } else if (method === 'tools/list') {
    const start = params?.cursor === undefined ? 0 : decodeCursor(params.cursor);
    if (start === undefined || start > count) {
      send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid cursor' } });
      return;
    }
    const end = Math.min(start + pageSize, count);
    const tools = [];
    for (let i = start; i < end; i += 1) tools.push(tool(i));
    send({
      jsonrpc: '2.0',
      id,
      result: end < count ? { tools, nextCursor: encodeCursor(end) } : { tools },
    });
  } else {
    send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
lines.on('close', () => process.stdout.write('', () => process.exit(0)));
