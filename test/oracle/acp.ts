// One client process for many cases, over the Agent Client Protocol (JSON-RPC on stdio, the mode
// editors drive: the client's interactive permission engine, with a permission request for each
// tool that asks). Each case is a session with its own folder (its committed config) and its own
// prompt, which carries the case's id for the model stand-in; a few sessions run at once. The
// client is stopped by its pid once every prompt has returned: ACP never exits on its own.
import { createInterface } from 'node:readline';
import { pooled, startClient, stop } from './harness.js';

export interface AcpSession {
  /** The session's working folder: the case's repository. */
  cwd: string;
  prompt: string;
}

export interface AcpResult {
  /** The session/update notifications of the session, in order. */
  updates: Record<string, unknown>[];
  /** The permission requests of the session (each answered as `permission` says). */
  permissions: Record<string, unknown>[];
  stopReason?: string;
}

interface Message {
  id?: number;
  method?: string;
  params?: { sessionId?: string; options?: { optionId: string; kind: string }[] } & Record<
    string,
    unknown
  >;
  result?: unknown;
  error?: unknown;
}

export interface AcpOptions {
  /** The client's own folder (not a case's) and environment. */
  cwd: string;
  env: Record<string, string>;
  /** Sessions at once. */
  parallel?: number;
  /**
   * How a permission request is answered: `cancel` (the user dismissed it) or `reject` (the
   * user picked "reject once"); either way the tool does not run, and the case observes "ask".
   */
  permission?: 'cancel' | 'reject';
}

/** Runs each session's prompt in one client process; one result a session, in order. */
export async function runAcp(
  command: string,
  args: string[],
  sessions: AcpSession[],
  options: AcpOptions,
): Promise<AcpResult[]> {
  const client = startClient(command, args, { cwd: options.cwd, env: options.env, stdin: true });
  const { child } = client;
  const pending = new Map<number, (m: Message) => void>();
  const bySession = new Map<string, AcpResult>();
  let next = 0;
  const send = (m: unknown) => child.stdin?.write(`${JSON.stringify(m)}\n`);
  const exited = client.closed.then((code) => {
    throw new Error(`${command} ${args.join(' ')} exited ${code}: ${client.stderr().slice(-800)}`);
  });
  const call = async (method: string, params: unknown) => {
    const answer = new Promise<Message>((resolve) => {
      pending.set(++next, resolve);
      send({ jsonrpc: '2.0', id: next, method, params });
    });
    const m = await Promise.race([answer, exited]);
    if (m.error) throw new Error(`${method}: ${JSON.stringify(m.error)}`);
    return m.result as Record<string, unknown>;
  };
  const answerPermission = (m: Message) => {
    const reject = m.params?.options?.find((o) => o.kind === 'reject_once');
    const outcome =
      options.permission === 'reject' && reject
        ? { outcome: 'selected', optionId: reject.optionId }
        : { outcome: 'cancelled' };
    send({ jsonrpc: '2.0', id: m.id, result: { outcome } });
  };
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const m = JSON.parse(line) as Message;
    const session = bySession.get(m.params?.sessionId ?? '');
    if (m.method === 'session/request_permission') {
      session?.permissions.push(m.params ?? {});
      answerPermission(m);
    } else if (m.method === 'session/update') session?.updates.push(m.params ?? {});
    else if (m.method !== undefined && m.id !== undefined)
      // A request the harness does not serve (it declares no capability for any).
      send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not served' } });
    else if (m.id !== undefined) pending.get(m.id)?.(m);
  });
  exited.catch(() => undefined);
  try {
    await call('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const slot = pooled(options.parallel ?? 6);
    return await Promise.all(
      sessions.map((s) =>
        slot(async () => {
          const created = await call('session/new', { cwd: s.cwd, mcpServers: [] });
          const result: AcpResult = { updates: [], permissions: [] };
          bySession.set(created.sessionId as string, result);
          const done = await call('session/prompt', {
            sessionId: created.sessionId,
            prompt: [{ type: 'text', text: s.prompt }],
          });
          if (typeof done.stopReason === 'string') result.stopReason = done.stopReason;
          return result;
        }),
      ),
    );
  } finally {
    stop(child);
  }
}
