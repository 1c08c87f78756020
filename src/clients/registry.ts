import type { Client } from './client.js';
import { claudeCode } from './claude-code/client.js';
import { codex } from './codex/index.js';
import { gemini } from './gemini/client.js';
import { opencode } from './opencode/index.js';
import { qwen } from './qwen/index.js';
import { vscode } from './vscode/index.js';
import { cursor } from './cursor/index.js';

/*
 * Every client the check and `rules --client` know, one row each (a folder under clients/ fills
 * the Client seam). The order is the order reports list them in.
 */
export const CLIENTS: readonly Client[] = [
  claudeCode,
  codex,
  gemini,
  opencode,
  qwen,
  vscode,
  cursor,
];

/** The client with this id, or undefined. */
export function clientById(id: string): Client | undefined {
  return CLIENTS.find((c) => c.id === id);
}
