// A local stand-in for the Gemini API (generateContent, streamed or not), so the real Gemini CLI
// runs offline (GOOGLE_GEMINI_BASE_URL). Conversations are told apart by a case id in the prompt
// ("oracle case 3"): the first answer of a case's conversation calls that case's tools, the next
// is plain text. It records, per case, the MCP tools the first request offered and what came back
// for each call. Requests with a response schema (Gemini's model routing) get a valid routing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GeminiCall {
  name: string;
  args: Record<string, unknown>;
}

export interface CaseRecord {
  /** The `mcp_` tools of the first request that offered tools. */
  offered?: string[];
  /** What came back for each call, by tool name: its output, or its error. */
  results: Map<string, { output?: string; error?: string }>;
}

export interface GeminiApi {
  url: string;
  /** The calls to make in case `id`'s conversation. */
  expect(id: number, calls: GeminiCall[]): void;
  record(id: number): CaseRecord;
  close(): Promise<void>;
}

interface Part {
  text?: string;
  functionResponse?: { name: string; response?: { output?: unknown; error?: unknown } };
}
interface Request {
  contents?: { parts?: Part[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
  generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown };
}

const ROUTING = '{"complexity_reasoning":"a stand-in","complexity_score":10}';

/** The answer to one request, recording what it carried. */
function answer(
  request: Request,
  calls: Map<number, GeminiCall[]>,
  records: Map<number, CaseRecord>,
) {
  const parts = (request.contents ?? []).flatMap((c) => c.parts ?? []);
  const id = Number(/oracle case (\d+)/.exec(parts.map((p) => p.text ?? '').join('\n'))?.[1]);
  const config = request.generationConfig;
  if (config?.responseJsonSchema || config?.responseSchema) return [{ text: ROUTING }];
  const record = records.get(id);
  const tools = (request.tools ?? [])
    .flatMap((t) => t.functionDeclarations ?? [])
    .map((f) => f.name);
  const responses = parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
  if (!record || !tools.length) return [{ text: 'Done.' }];
  for (const r of responses) {
    const { output, error } = r.response ?? {};
    const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
    record.results.set(r.name, {
      ...(output !== undefined ? { output: asText(output) } : {}),
      ...(error !== undefined ? { error: asText(error) } : {}),
    });
  }
  if (responses.length) return [{ text: 'Done.' }];
  record.offered ??= tools.filter((t) => t.startsWith('mcp_'));
  return (calls.get(id) ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args } }));
}

export async function startGeminiApi(): Promise<GeminiApi> {
  const calls = new Map<number, GeminiCall[]>();
  const records = new Map<number, CaseRecord>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      let request: Request = {};
      try {
        request = JSON.parse(body) as Request;
      } catch {
        // Not JSON (a probe of the endpoint): answered as an empty request.
      }
      const payload = {
        candidates: [
          {
            content: { role: 'model', parts: answer(request, calls, records) },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
        modelVersion: 'stand-in',
      };
      if (req.url?.includes('alt=sse')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(payload)}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url?.includes(':countTokens') ? { totalTokens: 1 } : payload));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    expect(id, next) {
      calls.set(id, next);
      records.set(id, { results: new Map() });
    },
    record: (id) => records.get(id) ?? { results: new Map() },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
