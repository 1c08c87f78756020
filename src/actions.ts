import { appendFileSync } from 'node:fs';
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

/** Appends markdown to the job summary; false when the runner gave no summary file. */
export function appendSummary(markdown: string): boolean {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return false;
  appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`, 'utf8');
  return true;
}

/** Hides a secret in the job log. */
export function setSecret(value: string): void {
  if (value) process.stdout.write(`::add-mask::${escapeData(value)}${EOL}`);
}
