// The parts of the MCP SDK the auditor uses, imported by name so that the bundle leaves out the
// rest of the package (OAuth flows, the SSE transport and the like): a dynamic import of the
// package itself would keep every export, and all of it would be read while the server boots.
// zod's configuration first: the SDK builds many schemas as it loads.
import '../zod.js';

export {
  Client,
  ProtocolErrorCode,
  SdkErrorCode,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
