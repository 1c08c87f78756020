// Where an in-process update may write: the folder a test's class list is in (the tool writes
// only inside the repository, and a test's temporary folder stands in for one).
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WriteRoot } from '../../src/confined.js';

/** The folder holding `path`, as the repository an update writes in. */
export async function folderRoot(path: string): Promise<WriteRoot> {
  return { path: await realpath(dirname(path)), name: 'the repository', links: 'inside' };
}
