#!/usr/bin/env node
// Runs an MCP stdio server (argv after the marker path) and writes the marker file once the
// server has answered a tools/list: proof the client listed the server's tools. The opencode
// oracle reads it when the first model request comes in, so a run in which opencode had not
// listed them yet is told apart from one whose permission rules took them all off the list.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [marker, ...server] = process.argv.slice(2);
const child = spawn(process.execPath, server, { stdio: ['pipe', 'pipe', 'inherit'] });
const listing = new Set();
createInterface({ input: process.stdin }).on('line', (line) => {
  try {
    const message = JSON.parse(line);
    if (message.method === 'tools/list') listing.add(message.id);
  } catch {
    // Not JSON: passed on as it is; the server answers it.
  }
  child.stdin.write(`${line}\n`);
});
createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  try {
    const message = JSON.parse(line);
    if (listing.has(message.id) && message.result) writeFileSync(marker, 'listed\n');
  } catch {
    // Not JSON: the client judges it.
  }
});
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 1));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
