// The audit engine in one process, for the unit layer: each stdio server a test configures (the
// example notes server, or configurable.mjs with a spec) is served by the same spec-server.mjs
// that builds the fixture processes, linked to the auditor's own client through the SDK's
// InMemoryTransport. Same tools as the end-to-end run; no process, socket or build.
import { InMemoryTransport, type Transport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { basename } from 'node:path';
import type { SpawnSpec } from '../../src/server/process.js';
import { explainFailure } from '../../src/server/failure.js';
import type {
  Connect,
  Connection,
  ListLimits,
  Listing,
  ProtocolEra,
  ServerTarget,
} from '../../src/server/listing.js';
import type { Progress } from '../../src/server/connection.js';
import type { AuditError } from '../../src/errors.js';
import { buildSpecServer } from '../fixtures/servers/spec-server.mjs';
import { loadNotesSpec, readSpec } from '../fixtures/servers/shared.mjs';
import { runCli as runCommands } from '../../src/cli/commands.js';
import { failedCommand } from '../../src/cli/help.js';
import { noWorkflowCommands } from '../../src/escape.js';
import { EXAMPLE, NOTES_SERVER, type Run } from './cli.js';
import type { Git } from '../../src/git.js';
import { noRepository } from './memory-git.js';

type Factory = Parameters<typeof serveStdio>[0];

/** What the command line would serve, or an error naming a command with no twin here. */
function serverOf(spawn: SpawnSpec): Factory {
  const [script, specArg] = spawn.args;
  const fixture = script === undefined ? '' : basename(script);
  // The example, and raw-notes.mjs that lists and answers what it does (the oracles' server).
  if (script === EXAMPLE || script === NOTES_SERVER) {
    const rest = spawn.args.slice(1);
    // As the example does: --read-only serves list_notes alone; any other argument has no twin.
    const notes = loadNotesSpec() as { tools: { name: string }[] };
    if (rest.length === 0) return () => buildSpecServer(notes);
    if (rest.length === 1 && rest[0] === '--read-only') {
      const readOnly = { ...notes, tools: notes.tools.filter((t) => t.name === 'list_notes') };
      return () => buildSpecServer(readOnly);
    }
  }
  if (fixture === 'configurable.mjs' && specArg !== undefined) {
    const spec = readSpec(specArg);
    return () => buildSpecServer(spec);
  }
  if (fixture === 'era-spec.mjs' && specArg !== undefined) {
    // As era-spec.mjs does: the spec's `legacy` tools to 2025-era clients, `modern` to others.
    const spec = readSpec(specArg) as { name?: string } & Record<string, unknown>;
    return ({ era }) => buildSpecServer({ name: spec.name, tools: spec[era] });
  }
  throw new Error(
    `no in-memory server for ${[spawn.command, ...spawn.args].join(' ')}: the unit layer serves the example server, raw-notes.mjs, configurable.mjs and era-spec.mjs; run other fixtures end to end`,
  );
}

/** One listing's link to an in-process server; what it sends is counted as the wire would. */
class InMemoryConnection implements Connection {
  readonly progress: Progress = { phase: 'start', pages: 0, tools: 0 };
  readonly noise: string[] = [];
  received = 0;
  private handle: { close(): Promise<void> } | undefined;

  constructor(
    private readonly target: ServerTarget,
    readonly era: ProtocolEra,
    private readonly factory: Factory,
  ) {}

  prepare() {
    return import('../../src/server/sdk.js');
  }

  transport(): Promise<Transport> {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const send = server.send.bind(server);
    server.send = (message, options) => {
      this.received += JSON.stringify(message).length + 1;
      return send(message, options);
    };
    // serveStdio takes any transport, and picks the era from the opening exchange as it does
    // for the fixture processes.
    this.handle = serveStdio(this.factory, { transport: server });
    return Promise.resolve(client);
  }

  race<T>(promise: Promise<T>): Promise<T> {
    return promise;
  }

  finish(listing: Listing): Promise<Listing> {
    return Promise.resolve(listing);
  }

  failure(error: unknown, limits: ListLimits): Promise<AuditError> {
    const { target, era, progress } = this;
    const context = { target, era, progress, limits, server: undefined, noise: [] };
    return explainFailure(error, { ...context, redact: (text: string) => text });
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}

/** A Connect for runAudit and listTools that serves every stdio server in this process. */
export const inMemory: Connect = (target, era) => {
  if (target.kind !== 'stdio')
    throw new Error('no in-memory server for an HTTP target: run it end to end');
  return new InMemoryConnection(target, era, serverOf(target.spawn));
};

/**
 * The CLI's commands as src/cli.ts runs them (exit 2 and one line for an error, no workflow
 * commands in the output), in this process, its servers in memory: the same Run as the e2e
 * layer's runCli, for the many variants of a rule that need no real process. `cwd` is where
 * relative paths and .mcp.json are looked up, as for a real run; `git` is the clone it runs in
 * (test/support/memory-git.ts), by default none (a folder in no repository); `connect` serves the
 * servers (by default inMemory).
 */
export async function runCliInMemory(
  args: string[],
  options: { cwd?: string; git?: Git; connect?: Connect } = {},
): Promise<Run> {
  const before = process.cwd();
  const pwd = process.env.PWD;
  // As a shell's `cd` does: PWD names the folder as given, a symlink's name included.
  if (options.cwd) {
    process.chdir(options.cwd);
    process.env.PWD = options.cwd;
  }
  try {
    const connect = options.connect ?? inMemory;
    const result = await runCommands(args, { connect, git: options.git ?? noRepository });
    return {
      code: result.exitCode,
      stdout: noWorkflowCommands(result.stdout),
      stderr: noWorkflowCommands(result.stderr),
    };
  } catch (error) {
    const failed = failedCommand(error);
    return { code: failed.exitCode, stdout: '', stderr: noWorkflowCommands(failed.stderr) };
  } finally {
    process.chdir(before);
    if (pwd === undefined) delete process.env.PWD;
    else process.env.PWD = pwd;
  }
}
