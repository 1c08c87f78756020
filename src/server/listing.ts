// server/ (this is its entry): the first step of the flow, reaching the server under audit and
// listing its tools (process and process tree, stdio, Streamable HTTP, pagination, failures
// described, the servers started early). Does I/O. May import core/, the shared leaves (errors,
// escape, redact, lazy, version), the MCP SDK and Node; never config/, report/, action/ or cli/
// (scripts/layers.mjs).
// Lists a server's tools: a Connection (stdio or Streamable HTTP) to reach it, the SDK's client
// for the handshake, and paginate() for every page. Only `tools/list` is ever called.
import { AuditError } from '../errors.js';
import { VERSION } from '../version.js';
import {
  DEFAULT_LIMITS,
  MODERN_REVISION,
  type Connection,
  type ListLimits,
  type Listing,
  type ProtocolEra,
  type Sdk,
  type ServerTarget,
} from './connection.js';
import { HttpConnection } from './http.js';
export { startPortKey } from './http-start.js';
import { paginate } from './paginate.js';
import { noJsonSchemaValidation } from './sdk-shims.js';
import { StdioConnection } from './stdio.js';

export {
  DEFAULT_LIMITS,
  MAX_LISTING,
  type Connection,
  MODERN_REVISION,
  type ListLimits,
  type Listing,
  type ProtocolEra,
  type ServerTarget,
} from './connection.js';

/** Names the configured server in a message, when the config file named it. */
function labelled(error: AuditError, target: ServerTarget): AuditError {
  if (target.label === undefined) return error;
  return new AuditError(`Server "${target.label}": ${error.message}`, error.hint, error.details);
}

function newClient(sdk: Sdk, era: ProtocolEra) {
  return new sdk.Client(
    { name: 'mcp-annotation-auditor', version: VERSION },
    {
      capabilities: {},
      jsonSchemaValidator: noJsonSchemaValidation,
      versionNegotiation:
        era === 'modern' ? { mode: { pin: MODERN_REVISION } } : { mode: 'legacy' },
    },
  );
}

/** The handshake and every page, through `connection`; the client is handed back for closing. */
async function listThrough(
  connection: Connection,
  limits: ListLimits,
  opened: (client: ReturnType<typeof newClient>) => void,
): Promise<Listing> {
  const sdk = await connection.prepare();
  const transport = await connection.transport(sdk, limits);
  const client = newClient(sdk, connection.era);
  opened(client);
  await connection.race(client.connect(transport, { timeout: limits.startTimeoutMs }));
  connection.progress.phase = 'list';
  const info = client.getServerVersion();
  const pages = await paginate(client, connection, limits);
  const listing: Listing = { era: connection.era, ...pages, stdoutNoise: connection.noise };
  if (info) listing.serverInfo = { name: info.name, version: info.version };
  return await connection.finish(listing);
}

/** How a listing reaches a server: the audit's own, or one a test connects in memory. */
export type Connect = (target: ServerTarget, era: ProtocolEra) => Connection;

/** The audit's way: a process over stdio, or a Streamable HTTP endpoint. */
export const connectTo: Connect = (target, era) =>
  target.kind === 'stdio' ? new StdioConnection(target, era) : new HttpConnection(target, era);

/**
 * Starts (or reaches) the server, lists every page of its tools, and stops what it started.
 * Only `tools/list` is ever called: the auditor never calls a tool.
 */
export async function listTools(
  target: ServerTarget,
  era: ProtocolEra,
  limits: ListLimits = DEFAULT_LIMITS,
  connect: Connect = connectTo,
): Promise<Listing> {
  // A stdio server starts here, before the SDK (about 100 ms of schema building) has loaded.
  const connection = connect(target, era);
  let client: ReturnType<typeof newClient> | undefined;
  try {
    return await listThrough(connection, limits, (opened) => (client = opened));
  } catch (error) {
    throw labelled(await connection.failure(error, limits), target);
  } finally {
    // Closing the SDK client clears its timers; it can wait on a stubborn server, so it is not
    // awaited: we end the process ourselves.
    void client?.close().catch(() => undefined);
    await connection.close();
  }
}
