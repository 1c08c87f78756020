// Servers and configs the base-commit tests share, end to end (test/e2e/) and in memory
// (test/unit/): the same fixture, whichever git and CLI run it.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVERS, withAnnotations, type notesSpec } from './cli.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** The era-aware server (era-spec.mjs) as the notes server, audited in `era`. */
export function eraConfig(era = 'both'): Record<string, unknown> {
  return {
    policies: ['claude'],
    servers: {
      notes: {
        command: 'node',
        args: [join(SERVERS, 'era-spec.mjs'), 'eras.json'],
        protocolEra: era,
      },
    },
  };
}

/** What the era-aware server in `dir` lists to legacy and to modern clients. */
export async function serveEras(dir: string, legacy: Spec, modern: Spec): Promise<void> {
  await writeFile(
    join(dir, 'eras.json'),
    JSON.stringify({ name: 'notes', legacy: legacy.tools, modern: modern.tools }),
  );
}

/** A config entry that serves the spec in `dir/<file>`, with a secret in its environment. */
/** A server entry that serves the spec in `dir/<file>` (configurable.mjs), with `more` keys. */
export function configurable(
  file = 'spec.json',
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: 'node', args: [join(SERVERS, 'configurable.mjs'), file], ...more };
}

export function served(file = 'spec.json'): Record<string, unknown> {
  return configurable(file, { env: { NOTES_TOKEN: 'tok-base-0001' } });
}

/** The relaxation tests' base config: the notes server under the claude policy. */
export const BASE_CONFIG = { policies: ['claude'], servers: { notes: served() } };

/** The PR's change only the diff with the base can catch: delete_note loses idempotentHint. */
export function dropIdempotent(spec: Spec): Spec {
  return withAnnotations(spec, 'delete_note', { idempotentHint: undefined });
}

/** `files` written under `dir` (folders made), JSON for objects. */
export async function putFiles(dir: string, files: Record<string, unknown>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(
      join(dir, path),
      typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    );
  }
}
