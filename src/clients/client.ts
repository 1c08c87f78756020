// clients/: what the audit means for each MCP client's own config, one folder a client
// (claude-code/, ...) filling the Client seam below, listed in registry.ts. Pure: the files are
// read and written by files.ts, config/, action/ and cli/; the audit puts what clients/ returns on
// the report (audit-clients.ts). May import core/ and the shared leaves; never config/, report/
// or a layer above (scripts/layers.mjs). A new client is a new folder and a registry row.
import type { ToolClass } from '../core/classify.js';
import type { ClientDecision, ClientProblem, ClientVerdict } from '../core/rules/rule.js';
import type { HintName } from '../core/tools.js';

export {
  CLIENT_DECISIONS,
  type ClientDecision,
  type ClientProblem,
  type ClientVerdict,
} from '../core/rules/rule.js';

/*
 * The seam every client model fills (one folder a client under clients/): where its committed
 * config lives, how it names a tool, how it decides a tool from that config and from the
 * annotations on its own, and how the class list's rules are written into its file keeping the
 * rest byte for byte. The check and `rules --client` read clients only through this shape, so
 * adding a client is adding a folder and one row in clients/registry.ts.
 *
 * A client raises no finding: decide() and problems() return plain data (a ClientVerdict, a
 * ClientProblem with its kind), and the client rules of core/rules/ word every finding the same
 * way for every client (clients/judge.ts builds their ClientContext). Since the client phase,
 * problems() returns ClientProblem {kind, rule?, file, line?, why, fix}: where it returned
 * {id, severity?, message, fix, file, line?}, `id` is `kind`, the message is `rule` (the subject
 * as the file writes it) and `why` (no client label, file or line: the rule adds them), and the
 * severity is the rule's (settings-ignored's from whether a recorded delete tool is exposed).
 * The optional assumes() says what an allow finding takes for granted (it was in the message).
 */

/** The shape of a client id (`claude-code`, `codex`): what JSON and the command line take. */
export const CLIENT_ID = /^[a-z][a-z0-9-]{0,39}$/;

/** A recorded tool as a client sees it: its server key, name, reviewed class and declared hints. */
export interface ClientTool {
  /** The server's key as the class list records it (the config key, normalised). */
  server: string;
  /**
   * The key as the auditor's config writes it (`my.notes`, recorded as my_notes), when it
   * differs: see {@link seenBy}.
   */
  serverKey?: string;
  tool: string;
  class: ToolClass;
  /** The hints the server declares now; a hint it does not declare is absent. */
  declared: Partial<Record<HintName, boolean>>;
  /**
   * The decision the config's mapping gives this tool when it is not the class's (clientRules'
   * per-tool and per-reach entries); see expectedDecision.
   */
  decision?: Exclude<ClientDecision, 'hidden'>;
}

/**
 * The tool as `client` sees it: with the server's key as the config writes it (`my.notes`) for a
 * client that keeps keys as written (Gemini CLI, Qwen Code), else as the class list records it.
 */
export function seenBy<T extends ClientTool>(client: Pick<Client, 'keepsKeys'>, tool: T): T {
  return client.keepsKeys && tool.serverKey !== undefined
    ? { ...tool, server: tool.serverKey }
    : tool;
}

/** A committed file the client reads: its path relative to the repository ('/' separators). */
export interface ClientFile {
  path: string;
  text: string;
}

/** The mapping of classes to decisions that `rules` writes (read → allow, edit → ask, delete → deny). */
export type ClassDecisions = Record<ToolClass, Exclude<ClientDecision, 'hidden'>>;

/** The decision the class list gives a tool: its own (a per-tool or per-reach mapping), else its class's. */
export function expectedDecision(
  tool: ClientTool,
  mapping: ClassDecisions,
): Exclude<ClientDecision, 'hidden'> {
  return tool.decision ?? mapping[tool.class];
}

export interface Client<State = unknown> {
  /** The id on the command line and in JSON (`rules --client codex`, `tools[].clients.codex`). */
  id: string;
  /** The name people know, for messages and the PR comment ("Codex CLI"). */
  label: string;
  /** How the model was verified: the real binary's version, or only the client's documentation. */
  verified: { binary: string; version: string } | 'documentation';
  /** The committed files (repository-relative) the client reads, in the order it loads them. */
  projectFiles: readonly string[];
  /**
   * Folders (repository-relative) whose files are given to read() too: a client's config folder
   * it may ignore (Gemini's workspace .gemini/policies/), so problems() can say so.
   */
  projectDirs?: readonly string[];
  /** The tool's name as the client shows it to the model and matches it in rules. */
  fullName(server: string, tool: string): string;
  /**
   * The client matches and names a server by its key as written (`my.notes`), where the class
   * list records the normalised name (my_notes): every tool reaches it through {@link seenBy},
   * with `server` as written.
   */
  keepsKeys?: true;
  /**
   * Reads the committed files that exist; throws AuditError naming the file and line when one
   * does not parse (a file that cannot be read is never judged as "no rules").
   */
  read(files: ClientFile[]): State;
  /** Whether the committed config configures this client at all (a server or a rule in it). */
  configures(state: State): boolean;
  /** The effective decision for one tool, exactly as the client would take it. */
  decide(state: State, tool: ClientTool): ClientVerdict;
  /** Rules or files that the client skips, or that name no recorded tool or decide nothing. */
  problems(state: State, tools: ClientTool[]): ClientProblem[];
  /**
   * What the check takes for granted in an allow `verdict`, said on its finding (Claude Code:
   * a project file's allow rule holds once the workspace is trusted). Most clients leave it out.
   */
  assumes?(state: State, verdict: ClientVerdict): string | undefined;
  /** The file `rules --client <id> --write` writes by default (repository-relative). */
  rulesFile: string;
  /**
   * The rules file's new text: the class list's rules for `tools` merged into `existing`, with
   * everything else kept byte for byte; writing it twice changes nothing. Throws AuditError
   * (naming `path`, default `rulesFile`) when `existing` does not parse. Each tool's decision is
   * expectedDecision(tool, mapping).
   */
  writeRules(
    existing: string | undefined,
    tools: ClientTool[],
    mapping: ClassDecisions,
    path?: string,
  ): string;
  /** What `rules` prints beside the rules (where the file goes, what the client ignores). */
  notes?: readonly string[];
  /**
   * Loads what read() and writeRules() need and the start-up bundle leaves out (Codex's TOML
   * parser); the caller awaits it once before either, only when one of `projectFiles` exists or
   * rules are written. A client that needs nothing loaded leaves it out.
   */
  load?(): Promise<void>;
}
