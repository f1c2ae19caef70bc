/** `mcp`: serve the tools of `src/cli/mcp/` over stdio until the client closes the connection. */
// The command's action; its definition (options, help text) is `mcp.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createMcpServer } from '../mcp/server.js';
import { CLI_VERSION } from '../version.js';

export async function doMcp(): Promise<void> {
  const server = createMcpServer(CLI_VERSION);
  await server.connect(new StdioServerTransport());
  // Served until stdin closes; the transport owns stdout, so nothing else is printed.
  await new Promise<void>((resolve) => process.stdin.once('close', resolve).once('end', resolve));
}
