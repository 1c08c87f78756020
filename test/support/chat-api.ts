// A local stand-in for the OpenAI Chat Completions API (streamed or not), so the real opencode
// runs offline (a provider through its bundled @ai-sdk/openai-compatible with baseURL here). Its
// first answer in a conversation that offers tools is one tool call per call of `calls`; its next
// is plain text, as is its answer to a request offering none, and to opencode's title request.
// It records the tool names the conversation's first request offered, what came back for each
// call, and what a readiness probe said when that first request came in. Several conversations
// at once (a client over ACP, a session a case) are told apart by a case id in the prompt
// ("oracle case 3", expectCase); a request with no such id belongs to the one of expect().
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
  /** The calls to make in case `id`'s conversation (its prompt says "oracle case <id>"). */
  expectCase(id: number, calls: ToolCall[], ready?: () => boolean): void;
  /** What case `id`'s conversation recorded, as offered(), outputs() and readyAtFirst() say. */
  record(id: number): ChatRecord;
  close(): Promise<void>;
}

export interface ChatRecord {
  offered?: string[];
  outputs: Map<string, string>;
  readyAtFirst?: boolean;
}

interface Conversation extends ChatRecord {
  calls: ToolCall[];
  ready?: () => boolean;
}

/** The conversation with no case id in its prompt (expect()). */
const PLAIN = -1;

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
  const conversations = new Map<number, Conversation>();
  const conversation = (id: number): Conversation => {
    const known = conversations.get(id);
    if (known) return known;
    const fresh: Conversation = { calls: [], outputs: new Map() };
    conversations.set(id, fresh);
    return fresh;
  };
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
      const said = (request.messages ?? [])
        .filter((m) => m.role === 'user')
        .map((m) => textOf(m.content))
        .join('\n');
      const id = Number(/oracle case (\d+)/.exec(said)?.[1] ?? PLAIN);
      const c = conversation(id);
      const tools = (request.tools ?? []).flatMap((t) => (t.function ? [t.function.name] : []));
      const answered = (request.messages ?? []).filter((m) => m.role === 'tool');
      for (const m of answered) {
        const call = c.calls[Number(m.tool_call_id?.replace('call_', ''))];
        if (call) c.outputs.set(call.name, textOf(m.content));
      }
      const first = !isTitleRequest(request) && answered.length === 0 && c.offered === undefined;
      if (first) {
        c.offered = tools;
        c.readyAtFirst = c.ready?.() ?? true;
      }
      const message =
        first && tools.length
          ? {
              content: null,
              tool_calls: c.calls.map((call, i) => ({
                id: `call_${i}`,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.input) },
              })),
            }
          : { content: 'Done.' };
      answer(res, request.stream === true, message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const expectCase = (id: number, calls: ToolCall[], ready?: () => boolean) => {
    conversations.set(id, { calls, outputs: new Map(), ...(ready ? { ready } : {}) });
  };
  const record = (id: number): ChatRecord => {
    const c = conversation(id);
    return {
      ...(c.offered ? { offered: [...c.offered] } : {}),
      outputs: new Map(c.outputs),
      ...(c.readyAtFirst !== undefined ? { readyAtFirst: c.readyAtFirst } : {}),
    };
  };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    expect: (next, probe) => expectCase(PLAIN, next, probe),
    offered: () => record(PLAIN).offered ?? [],
    outputs: () => record(PLAIN).outputs,
    readyAtFirst: () => record(PLAIN).readyAtFirst,
    expectCase,
    record,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
