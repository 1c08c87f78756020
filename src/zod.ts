import { z } from 'zod';

/**
 * zod compiles a parser for each object schema (with `new Function`) the first time it is used.
 * The auditor parses only a handful of messages with each schema, the MCP SDK's included (they
 * share this zod), so compiling costs more than it saves: about 3 ms on the critical path of the
 * handshake, measured with bench/. Interpreted parsing validates exactly the same. It must be set
 * before the SDK is imported: each schema reads it when it is built.
 */
z.config({ jitless: true });

export { z };
