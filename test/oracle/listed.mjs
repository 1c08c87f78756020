#!/usr/bin/env node
// Runs an MCP stdio server module (argv after the marker path) in this process and writes the
// marker file once the server has answered a tools/list: proof the client listed the server's
// tools. The opencode oracle reads it when the first model request comes in, so a run in which
// opencode had not listed them yet is told apart from one whose permission rules took them all
// off the list. In process, not a child: one Node start a server, on a busy machine. A marker path
// ending in / is a folder: the marker is the server's working folder (the client's session
// folder, where a client runs several), URI-encoded, in it.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [given, server, ...args] = process.argv.slice(2);
const marker = given.endsWith('/') ? `${given}${encodeURIComponent(process.cwd())}` : given;
process.argv = [process.argv[0], server, ...args];
const listing = new Set();

/** Calls `each` with every whole line of a stream's chunks. */
function lines(each) {
  let rest = '';
  return (chunk) => {
    rest += String(chunk);
    const parts = rest.split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts)
      try {
        each(JSON.parse(line));
      } catch {
        // Not JSON: the other side judges it.
      }
  };
}

const written = lines((message) => {
  if (listing.has(message.id) && message.result) writeFileSync(marker, 'listed\n');
});
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  written(chunk);
  return write(chunk, ...rest);
};
await import(pathToFileURL(server).href);
// After the server's own listener: stdin flows only once it listens, so nothing is missed.
process.stdin.on(
  'data',
  lines((message) => {
    if (message.method === 'tools/list') listing.add(message.id);
  }),
);
