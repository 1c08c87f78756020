// OpenAI's hint justifications file as a check reads it (the openai policy on): the PR's file,
// inside the repository and bounded (the action's as read before the server ran), and the base
// commit's, which the base plan read (base.ts).
import { readConfined, type WriteRoot } from '../confined.js';
import type { JustificationsInput } from '../core/justifications.js';
import type { BaseRead } from './base.js';
import type { Settings } from './settings.js';

/** The largest justifications file read: a few hundred tools' texts fit many times over. */
const MAX_JUSTIFICATIONS_BYTES = 4 * 1024 * 1024;

/**
 * What check reads of the justifications file; undefined when the openai policy is off. `base`
 * is the base plan's read, with the base's label, when the run has a base commit.
 */
export async function justificationsInput(
  settings: Settings,
  options: {
    root: WriteRoot;
    read?: (path: string) => Promise<string>;
    base?: { read: Promise<Pick<BaseRead, 'justifications'>>; label: string };
  },
): Promise<JustificationsInput | undefined> {
  if (!settings.policies.includes('openai')) return undefined;
  const { path, named } = settings.justifications;
  const text = await readConfined(path, options.root, 'the hint justifications file', {
    maxBytes: MAX_JUSTIFICATIONS_BYTES,
    ...(options.read ? { read: options.read } : {}),
  });
  const input: JustificationsInput = { file: path, named, ...(text !== undefined ? { text } : {}) };
  const base = options.base;
  if (base) {
    const read = base.read.then((r) =>
      r.justifications ? { text: r.justifications.text, label: base.label } : undefined,
    );
    // Awaited by the audit; until then a failure must not count as unhandled.
    read.catch(() => undefined);
    input.base = read;
  }
  return input;
}
