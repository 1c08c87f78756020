import { config } from 'zod/v4';

/**
 * zod compiles a parser for each object schema (with `new Function`) the first time it is used.
 * The auditor parses only a handful of messages with each schema, the MCP SDK's included (they
 * share this zod), so compiling costs more than it saves: about 3 ms on the critical path of the
 * handshake, measured with bench/. Interpreted parsing validates exactly the same. It must be set
 * before a schema is built: sdk.ts imports this module before the SDK, and lazy.ts, which every
 * module with schemas of its own uses, imports it too (test/cli.test.ts checks that no run
 * compiles code).
 *
 * Modules use zod as `import * as z from 'zod/v4'` and never pass `z` around as a value, so the
 * bundler keeps only the parts of zod that are called (a namespace exported as a value keeps
 * all of it: 189 KiB of bundle against 104).
 */
config({ jitless: true });
