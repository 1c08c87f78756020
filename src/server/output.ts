// What a failed server printed, made fit for a terminal and a message: cut, bounded, inert.
import { plural } from '../core/text.js';
import { linesSafe } from '../escape.js';
import type { ServerProcess } from './process.js';

/** Server-written text for a terminal: control and invisible characters made visible, lines kept. */
export function inert(text: string): string {
  return linesSafe(text, Infinity);
}

/** One line cut short, made inert. */
function cut(line: string): string {
  return inert(line.length > 300 ? `${line.slice(0, 300)}…` : line);
}

/** The last lines of `text`, each cut short, made inert. */
function lastLines(text: string, count: number): string {
  return text.split('\n').slice(-count).map(cut).join('\n');
}

/** A stderr line that reads like the cause of a failure rather than usage text or progress. */
const CAUSE =
  /^\s*(?:\w*(?:Error|Exception)\b|error\b|fatal\b|panic\b|Traceback\b|Caused by\b|E\d{4}\b|\[?(?:ERROR|FATAL|CRITICAL)\]?\b)|\b(?:error|fatal|panic|exception|cannot|could not|failed|not found|no such file|permission denied|ENOENT|EADDRINUSE|ECONNREFUSED)\b/i;
/** The cause-like lines shown, at most, and the last lines always shown. */
const CAUSE_LINES = 5;
const TAIL_LINES = 12;

/**
 * A failed server's stderr for people: the first few lines that look like the cause (a CLI
 * framework prints its error and then the whole usage text), then the last lines, with a marker
 * wherever lines were left out.
 */
function causeAndTail(text: string): string {
  const lines = text.split('\n');
  if (lines.length <= CAUSE_LINES + TAIL_LINES) return lines.map(cut).join('\n');
  const tailFrom = lines.length - TAIL_LINES;
  const causes: number[] = [];
  for (let i = 0; i < tailFrom && causes.length < CAUSE_LINES; i++)
    if (CAUSE.test(lines[i] as string)) causes.push(i);
  const out: string[] = [];
  let next = 0;
  for (const i of [...causes, ...Array.from({ length: TAIL_LINES }, (_, k) => tailFrom + k)]) {
    if (i > next) out.push(`[… ${plural(i - next, 'line')} left out …]`);
    out.push(cut(lines[i] as string));
    next = i + 1;
  }
  return out.join('\n');
}

/** The server's output for a message; `redact` runs before lines are cut, so no secret is split. */
export function stderrDetails(
  server: ServerProcess | undefined,
  noise: string[] = [],
  redact: (text: string) => string = (text) => text,
): string | undefined {
  const parts: string[] = [];
  const text = server && redact(server.stderr.toString()).trim();
  if (text) parts.push(`Server stderr:\n${causeAndTail(text)}`);
  const stdout = server && redact(server.stdoutTail?.toString() ?? '').trim();
  if (stdout) parts.push(`Start command stdout (last lines):\n${lastLines(stdout, 10)}`);
  if (noise.length)
    parts.push(
      `Lines the server wrote to stdout that are not JSON-RPC messages (stdio servers must log to stderr):\n${noise
        .slice(0, 5)
        .map(inert)
        .join('\n')}`,
    );
  return parts.length ? parts.join('\n') : undefined;
}
