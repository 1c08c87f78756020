// A local stand-in for the Anthropic Messages API (streamed as server-sent events), so the real
// Claude Code runs offline. Its first answer in a conversation with tools is one tool_use block per
// tool in `calls`; its next is plain text. It records what Claude Code sent back for each call,
// and which MCP tools the first request offered: in `tools`, or (Claude Code defers MCP tools'
// schemas) named in the system prompt's list of deferred tools.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface ModelApi {
  url: string;
  /** The calls to make in the next conversation; resets what was recorded. */
  expect(calls: ToolCall[]): void;
  /** The tool names offered in the first request of the conversation (deferred ones included). */
  offered(): string[];
  /** What came back for each call: the result text and whether it was an error. */
  results(): Map<string, { text: string; isError: boolean }>;
  close(): Promise<void>;
}

interface Block {
  type: string;
  text?: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: string | { type: string; text?: string }[];
}

function sse(res: import('node:http').ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events)
    res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

export async function startModelApi(): Promise<ModelApi> {
  let calls: ToolCall[] = [];
  let offered: string[] | undefined;
  const results = new Map<string, { text: string; isError: boolean }>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (
        req.method !== 'POST' ||
        !req.url?.startsWith('/v1/messages') ||
        req.url.includes('count_tokens')
      ) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      const request = JSON.parse(body) as {
        model?: string;
        system?: string | { text?: string }[];
        tools?: { name: string }[];
        messages?: { role: string; content: string | Block[] }[];
      };
      const system =
        typeof request.system === 'string'
          ? request.system
          : (request.system ?? []).map((b) => b.text ?? '').join('\n');
      const said = (request.messages ?? []).flatMap((m) =>
        typeof m.content === 'string' ? [m.content] : m.content.map((b) => b.text ?? ''),
      );
      const deferred = [system, ...said].flatMap((text) =>
        [...text.matchAll(/^mcp__\S+$/gm)].map((m) => m[0]),
      );
      const tools = [...(request.tools ?? []).map((t) => t.name), ...deferred];
      const sent = (request.messages ?? []).flatMap((m) =>
        Array.isArray(m.content) ? m.content : [],
      );
      const answered = sent.filter((b) => b.type === 'tool_result');
      for (const b of answered) {
        const call = calls[Number(b.tool_use_id?.replace('toolu_', ''))];
        if (!call) continue;
        const text =
          typeof b.content === 'string'
            ? b.content
            : (b.content ?? []).map((c) => c.text ?? '').join('');
        results.set(call.name, { text, isError: b.is_error === true });
      }
      const first = tools.length > 0 && answered.length === 0;
      if (first) offered ??= tools;
      const blocks: { type: string; text?: string; id?: string; name?: string; input?: unknown }[] =
        first
          ? calls.map((c, i) => ({
              type: 'tool_use',
              id: `toolu_${i}`,
              name: c.name,
              input: c.input,
            }))
          : [{ type: 'text', text: 'Done.' }];
      const events: Record<string, unknown>[] = [
        {
          type: 'message_start',
          message: {
            id: 'msg_standin',
            type: 'message',
            role: 'assistant',
            model: request.model ?? 'stand-in',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
      ];
      blocks.forEach((b, index) => {
        if (b.type === 'text') {
          events.push({
            type: 'content_block_start',
            index,
            content_block: { type: 'text', text: '' },
          });
          events.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'text_delta', text: b.text },
          });
        } else {
          events.push({ type: 'content_block_start', index, content_block: { ...b, input: {} } });
          events.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
          });
        }
        events.push({ type: 'content_block_stop', index });
      });
      events.push({
        type: 'message_delta',
        delta: { stop_reason: first ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 1 },
      });
      events.push({ type: 'message_stop' });
      sse(res, events);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    expect(next) {
      calls = next;
      offered = undefined;
      results.clear();
    },
    offered: () => offered ?? [],
    results: () => new Map(results),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
