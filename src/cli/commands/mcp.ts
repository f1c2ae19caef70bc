/** `mcp`: serve the tools of `src/cli/mcp/` over stdio until the client closes the connection. */
import { Command } from 'commander';

export const mcpCommand = (): Command =>
  new Command('mcp')
    .description(
      "Serve skillopt-sleep's commands as MCP tools over stdio (for Copilot, Codex, Claude Code and other MCP clients).",
    )
    .action(async () => (await import('./mcp-action.js')).doMcp());
