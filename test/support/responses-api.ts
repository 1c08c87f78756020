// A local stand-in for the OpenAI Responses API (streamed as server-sent events), so the real
// Codex CLI runs offline (a model provider with base_url here and wire_api = "responses"). Its
// first answer in a conversation that offers MCP tools is one function_call per call in
// `calls`; its next is plain text. Codex offers an MCP server's tools as a namespace
// (`{type: "namespace", name: "mcp__notes", tools: [...]}`) and expects a call to name the
// namespace and the tool apart; `offered()` gives them joined, as mcp__notes__add_note.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolCall } from './model-api.js';

export interface ResponsesApi {
  url: string;
  /** The calls to make in the next conversation; resets what was recorded. */
  expect(calls: ToolCall[]): void;
  /** The MCP tools the first request offered, as <namespace>__<tool>. */
  offered(): string[];
  /** What Codex sent back for each call, as text. */
  outputs(): Map<string, string>;
  close(): Promise<void>;
}

interface Request {
  tools?: { type: string; name: string; tools?: { name: string }[] }[];
  input?: { type: string; call_id?: string; output?: string | { text?: string }[] }[];
}

function sse(res: ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events)
    res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

/** The namespace and tool of a call: as offered, else split after mcp__<server>. */
function split(name: string, offered: [string, string][]): [string, string] {
  const hit = offered.find(([ns, tool]) => `${ns}__${tool}` === name);
  if (hit) return hit;
  const at = name.indexOf('__', 'mcp__'.length);
  return [name.slice(0, at), name.slice(at + 2)];
}

export async function startResponsesApi(): Promise<ResponsesApi> {
  let calls: ToolCall[] = [];
  let offered: [string, string][] | undefined;
  const outputs = new Map<string, string>();
  let turn = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const request = JSON.parse(body) as Request;
      const mcp = (request.tools ?? [])
        .filter((t) => t.type === 'namespace' && t.name.startsWith('mcp__'))
        .flatMap((t) => (t.tools ?? []).map((x): [string, string] => [t.name, x.name]));
      const answered = (request.input ?? []).filter((i) => i.type === 'function_call_output');
      for (const item of answered) {
        const call = calls[Number(item.call_id?.replace('call_', ''))];
        if (!call) continue;
        const out = item.output;
        outputs.set(
          call.name,
          typeof out === 'string' ? out : (out ?? []).map((c) => c.text ?? '').join('\n'),
        );
      }
      const first = mcp.length > 0 && answered.length === 0;
      if (first) offered ??= mcp;
      const id = `resp_${turn++}`;
      const items = first
        ? calls.map((c, i) => {
            const [namespace, name] = split(c.name, mcp);
            return {
              type: 'function_call',
              id: `fc_${i}`,
              call_id: `call_${i}`,
              namespace,
              name,
              arguments: JSON.stringify(c.input),
            };
          })
        : [
            {
              type: 'message',
              role: 'assistant',
              id: `msg_${id}`,
              content: [{ type: 'output_text', text: 'Done.' }],
            },
          ];
      sse(res, [
        { type: 'response.created', response: { id } },
        ...items.map((item) => ({ type: 'response.output_item.done', item })),
        {
          type: 'response.completed',
          response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } },
        },
      ]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    expect(next) {
      calls = next;
      offered = undefined;
      outputs.clear();
    },
    offered: () => (offered ?? []).map(([ns, tool]) => `${ns}__${tool}`),
    outputs: () => new Map(outputs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
