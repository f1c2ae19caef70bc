/** The CLI's version, shown by `--version` and announced by the MCP server. */
export const CLI_VERSION = '0.1.0';
