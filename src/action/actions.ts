import { appendFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { EOL } from 'node:os';

/**
 * The few workflow commands the action needs, written as the runner reads them. A hand-written
 * equivalent of @actions/core's, kept small so the action starts fast.
 */

/** An input as the runner passes it: INPUT_<NAME> with spaces as underscores; '' when unset. */
export function getInput(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Empty means not given. */
export function getOptionalInput(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const value = getInput(name, env);
  return value === '' ? undefined : value;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface AnnotationProperties {
  title?: string;
  file?: string;
  line?: number;
}

/** `::error file=...,line=...,title=...::message` */
export function annotation(
  level: AnnotationLevel,
  message: string,
  props: AnnotationProperties = {},
): string {
  const entries = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`);
  return `::${level}${entries.length ? ` ${entries.join(',')}` : ''}::${escapeData(message)}`;
}

export function issueAnnotation(
  level: AnnotationLevel,
  message: string,
  props: AnnotationProperties = {},
): void {
  process.stdout.write(`${annotation(level, message, props)}${EOL}`);
}

/** Appends `name<<delimiter ... delimiter` to a runner file (GITHUB_OUTPUT). */
function appendKeyValue(file: string, name: string, value: string): void {
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
}

export function setOutput(name: string, value: string | number): void {
  const file = process.env.GITHUB_OUTPUT;
  if (file) appendKeyValue(file, name, String(value));
  else
    process.stdout.write(`${EOL}::set-output name=${name}::${escapeProperty(String(value))}${EOL}`);
}

/** GitHub drops a step's whole job summary when it passes 1 MiB ("upload aborted"). */
export const SUMMARY_LIMIT = 1024 * 1024;

/**
 * Appends markdown to the job summary; false when the runner gave no summary file. What would
 * take the summary past GitHub's limit is cut, so that the rest still shows.
 */
export function appendSummary(markdown: string): boolean {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return false;
  let text = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
  let used = 0;
  try {
    used = statSync(file).size;
  } catch {
    // Not there yet: appending creates it.
  }
  const room = SUMMARY_LIMIT - used;
  if (Buffer.byteLength(text, 'utf8') > room) {
    const cut = "\n\n_Cut to fit GitHub's 1 MiB limit on a step's summary._\n";
    const keep = Math.max(0, room - Buffer.byteLength(cut, 'utf8'));
    // A multi-byte character cut in two decodes as U+FFFD: drop it.
    text = Buffer.from(text, 'utf8')
      .subarray(0, keep)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    text = keep > 0 ? `${text}${cut}` : '';
  }
  if (text) appendFileSync(file, text, 'utf8');
  return true;
}

/** Hides a secret in the job log. */
export function setSecret(value: string): void {
  if (value) process.stdout.write(`::add-mask::${escapeData(value)}${EOL}`);
}
