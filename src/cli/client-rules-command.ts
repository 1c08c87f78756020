import type { ClassList } from '../core/classlist.js';
import { confinedPath, readConfined, repositoryRoot, writeConfined } from '../confined.js';
import type { RuleMapping } from '../clients/claude-code/claude-settings.js';
import { MAX_SETTINGS_BYTES } from '../clients/claude-code/settings-check.js';
import { seenBy, type Client } from '../clients/client.js';
import { recordedTool, type RecordedClientTool } from '../clients/judge.js';
import { CLIENTS, clientById } from '../clients/registry.js';
import { AuditError } from '../errors.js';
import { reviewedJson, terminalSafe } from '../escape.js';
import { NPX_COMMAND } from '../version.js';
import type { CliResult } from './help.js';

/*
 * `rules --client <id>` for any client of the registry: each client's form of the class list's
 * rules (Client.writeRules), printed, or merged into its file inside the repository, everything
 * else of it kept byte for byte (a file that does not parse is refused, never overwritten).
 */

/** The clients `rules` is asked for: --client, else the config file's clients:, else Claude Code. */
export function chosenClients(given: readonly string[] | undefined): Client[] {
  const ids = given?.length ? [...new Set(given)] : ['claude-code'];
  return ids.map((id) => {
    const client = clientById(id);
    if (!client)
      throw new AuditError(
        `Unknown client "${terminalSafe(id, 60)}".`,
        `rules --client takes ${CLIENTS.map((c) => c.id).join(', ')}.`,
      );
    return client;
  });
}

/** What one client's rules are, or what writing them did. */
interface ClientRules {
  client: string;
  file: string;
  /** The file's new text (printed), or whether the write changed it. */
  text?: string;
  written?: boolean;
  notes: readonly string[];
}

/** One client's file with the class list's rules merged in, written when it changes. */
async function writeClient(
  client: Client,
  target: string,
  tools: RecordedClientTool[],
  mapping: RuleMapping,
): Promise<ClientRules> {
  const root = await repositoryRoot();
  const what = `${client.label}'s file`;
  // Checked before it is read, so that a link out of the repository is never read either.
  await confinedPath(target, root, what);
  const existing = await readConfined(target, root, what, { maxBytes: MAX_SETTINGS_BYTES });
  const text = client.writeRules(existing, tools, mapping.classes, target);
  const written = text !== existing;
  if (written) await writeConfined(target, text, root, what);
  return { client: client.id, file: target, written, notes: client.notes ?? [] };
}

/** A file's text for a terminal: each line made safe (a tool name cannot move the cursor). */
const lines = (text: string): string =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${terminalSafe(l, 100_000)}\n`)
    .join('');

/** How one client's result reads in text. */
function textOf(client: Client, r: ClientRules, count: number): string {
  const notes = r.notes.map((n) => `  Note: ${terminalSafe(n, 600)}\n`).join('');
  const file = terminalSafe(r.file, 200);
  if (r.text !== undefined) return `# ${client.label}: ${file}\n${lines(r.text)}${notes}`;
  return `${r.written ? 'Wrote' : 'Unchanged:'} ${file} (${client.label}: the rules of ${count} tool${count === 1 ? '' : 's'}; everything else kept).\n${notes}`;
}

/**
 * The rules of each client, printed (`write` undefined) or written: `write` names the file of a
 * single client; with several, each is written to its own rulesFile.
 */
export async function runClientRules(
  clients: Client[],
  list: ClassList,
  mapping: RuleMapping,
  options: { write?: string; format: string; keys?: ReadonlyMap<string, string> },
): Promise<CliResult> {
  if (options.write !== undefined && clients.length > 1)
    throw new AuditError(
      `--write ${terminalSafe(options.write, 200)} names one file, and rules was asked for ${clients.length} clients (${clients.map((c) => c.id).join(', ')}).`,
      `Give one --client with --write, once per client: ${clients.map((c) => `${NPX_COMMAND} rules --client ${c.id} --write ${c.rulesFile}`).join('; ')}.`,
    );
  // Each tool with its server's key as the config writes it, for a client that names tools by it.
  const tools = [...list.tools].map(([key, r]) => {
    const tool = recordedTool(key, r, mapping);
    const written = options.keys?.get(r.server);
    return written === undefined ? tool : { ...tool, serverKey: written };
  });
  const results: ClientRules[] = [];
  for (const client of clients) {
    await client.load?.();
    const seen = tools.map((t) => seenBy(client, t));
    results.push(
      options.write !== undefined
        ? await writeClient(client, options.write, seen, mapping)
        : {
            client: client.id,
            file: client.rulesFile,
            text: client.writeRules(undefined, seen, mapping.classes),
            notes: client.notes ?? [],
          },
    );
  }
  const stdout =
    options.format === 'text'
      ? results.map((r, i) => textOf(clients[i] as Client, r, tools.length)).join('\n')
      : `${reviewedJson({ clients: results }, 2)}\n`;
  return { exitCode: 0, stdout, stderr: '' };
}
