import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * What the action's entry did before any code of the PR ran in this step: the server under audit
 * is PR code, so the files the action trusts (the event, the config file) are read before it
 * starts, and what the server does to them afterwards cannot change this run.
 */
export interface EarlyStart {
  /** The working-directory input is already the current directory. */
  enteredWorkingDirectory: boolean;
  /** Absolute path -> what reading it gave. */
  files: Map<string, { text: string } | { error: Error }>;
}

/** Reads `paths` now, keeping each text or error for later. */
export function readEarly(paths: string[]): EarlyStart['files'] {
  const files: EarlyStart['files'] = new Map();
  for (const path of paths) {
    const key = resolve(path);
    try {
      files.set(key, { text: readFileSync(key, 'utf8') });
    } catch (error) {
      files.set(key, { error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return files;
}

/** A file's text as read early when it was, else as it is now. */
export function readText(path: string, early?: EarlyStart): Promise<string> {
  const got = early?.files.get(resolve(path));
  if (!got) return readFile(path, 'utf8');
  return 'text' in got ? Promise.resolve(got.text) : Promise.reject(got.error);
}
