import { readFile, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/*
 * The files a run trusts (the action's event, the config file, the settings files it judges),
 * read before the server under audit starts: the server is PR code, and what it does to them
 * afterwards cannot change this run. A leaf, loaded by the entry before anything else: it imports
 * nothing of the auditor's.
 */

/** Absolute path -> what reading it before the server started gave. */
const early = new Map<string, { text: string } | { error: Error }>();

/** Reads `paths` now, keeping each text or error for readTrusted. */
export function readNow(paths: string[]): void {
  for (const path of paths) {
    const key = resolve(path);
    try {
      early.set(key, { text: readFileSync(key, 'utf8') });
    } catch (error) {
      early.set(key, { error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
}

/** The error reading `path` gave before the server started, if it was read then and failed. */
export function earlyReadError(path: string): Error | undefined {
  const got = early.get(resolve(path));
  return got && 'error' in got ? got.error : undefined;
}

/** A file's text as it was read before the server under audit ran (readNow); else as it is now. */
export function readTrusted(path: string): Promise<string> {
  const got = early.get(resolve(path));
  // node:fs's callback form: the early start loads nothing it does not need (fs/promises).
  if (!got)
    return new Promise((done, fail) =>
      readFile(path, 'utf8', (error, text) => (error ? fail(error) : done(text))),
    );
  return 'text' in got ? Promise.resolve(got.text) : Promise.reject(got.error);
}

/** Listings of folders made before the server under audit started, by what they list. */
const listings = new Map<string, string[]>();

/** Keeps a listing made now (before the server starts) for listedEarly. */
export function listNow(key: string, paths: string[]): void {
  listings.set(key, paths);
}

/** The listing made before the server under audit ran, if one was. */
export function listedEarly(key: string): string[] | undefined {
  return listings.get(key);
}
