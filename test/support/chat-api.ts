// A local stand-in for the OpenAI Chat Completions API (streamed or not), so the real opencode
// runs offline (a provider through its bundled @ai-sdk/openai-compatible with baseURL here). Its
// first answer in a conversation that offers tools is one tool call per call of `calls`; its next
// is plain text, as is its answer to a request offering none, and to opencode's title request.
// It records the tool names the conversation's first request offered, what came back for each
// call, and what a readiness probe said when that first request came in.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolCall } from './model-api.js';

export interface ChatApi {
  url: string;
  /**
   * The calls to make in the next conversation; resets what was recorded. `ready` is asked when
   * the conversation's first request comes in (see readyAtFirst).
   */
  expect(calls: ToolCall[], ready?: () => boolean): void;
  /** Every tool name the conversation's first request offered. */
  offered(): string[];
  /** What came back for each call, as text. */
  outputs(): Map<string, string>;
  /** What `ready` said at the conversation's first request; undefined when none came. */
  readyAtFirst(): boolean | undefined;
  close(): Promise<void>;
}

interface Message {
  role: string;
  tool_call_id?: string;
  content?: string | { type: string; text?: string }[] | null;
}

/** opencode's request for a session title, beside the conversation: never answered with calls. */
const isTitleRequest = (request: Request): boolean =>
  request.messages?.some(
    (m) => m.role === 'system' && textOf(m.content).includes('title generator'),
  ) === true;

interface Request {
  stream?: boolean;
  tools?: { type: string; function?: { name: string } }[];
  messages?: Message[];
}

const textOf = (content: Message['content']): string =>
  typeof content === 'string' ? content : (content ?? []).map((c) => c.text ?? '').join('\n');

/** The answer as one completion or as server-sent chunks, as the request asked. */
function answer(res: ServerResponse, stream: boolean, message: Record<string, unknown>): void {
  const finish = message.tool_calls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  const base = { id: 'chatcmpl-1', created: 1, model: 'stand-in' };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  const calls = (message.tool_calls as Record<string, unknown>[] | undefined)?.map((c, index) => ({
    index,
    ...c,
  }));
  const delta = calls
    ? { role: 'assistant', content: null, tool_calls: calls }
    : { role: 'assistant', content: message.content };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }], ...extra })}\n\n`,
    );
  chunk({ delta, finish_reason: null });
  chunk({ delta: {}, finish_reason: finish }, { usage });
  res.end('data: [DONE]\n\n');
}

export async function startChatApi(): Promise<ChatApi> {
  let calls: ToolCall[] = [];
  let offered: string[] | undefined;
  let ready: (() => boolean) | undefined;
  let readyAtFirst: boolean | undefined;
  const outputs = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      const request = JSON.parse(body) as Request;
      const tools = (request.tools ?? []).flatMap((t) => (t.function ? [t.function.name] : []));
      const answered = (request.messages ?? []).filter((m) => m.role === 'tool');
      for (const m of answered) {
        const call = calls[Number(m.tool_call_id?.replace('call_', ''))];
        if (call) outputs.set(call.name, textOf(m.content));
      }
      const first = !isTitleRequest(request) && answered.length === 0 && offered === undefined;
      if (first) {
        offered = tools;
        readyAtFirst = ready?.() ?? true;
      }
      const message =
        first && tools.length
          ? {
              content: null,
              tool_calls: calls.map((c, i) => ({
                id: `call_${i}`,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.input) },
              })),
            }
          : { content: 'Done.' };
      answer(res, request.stream === true, message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    expect(next, probe) {
      calls = next;
      ready = probe;
      offered = undefined;
      readyAtFirst = undefined;
      outputs.clear();
    },
    offered: () => [...(offered ?? [])],
    outputs: () => new Map(outputs),
    readyAtFirst: () => readyAtFirst,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
