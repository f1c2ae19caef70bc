/**
 * `install copilot`: Copilot CLI's mcp-config.json (user level, which VS Code's Copilot agent reads too)
 * and the project's `.mcp.json` (`mcpServers`), which Copilot CLI, VS Code's Copilot agent and Claude
 * Code all read. VS Code's `.vscode/mcp.json` (`servers`), where older versions wrote, is legacy: an
 * entry an older install left there moves out, and uninstall takes it out too.
 */
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { setJsonValue } from '../../src/install/json-edit.js';
import { Ledger, written } from '../../src/install/ledger.js';
import { CLI, runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { actions, cli, onlyInserted, seed, tree } from './install-helpers.js';

const COPILOT = `{"mcpServers":{"github":{"type":"http","url":"https://example.invalid/mcp","tools":["*"]}}}`;
const MCP_JSON = `{
  "mcpServers": {
    "db": { "type": "stdio", "command": "db-mcp", "args": [], "tools": ["*"] }
  }
}
`;
const VSCODE = `// shared with the team
{
\t"inputs": [{ "type": "promptString", "id": "key", "password": true }],
\t"servers": {
\t\t"db": { "type": "stdio", "command": "db-mcp", "env": { "KEY": "\${input:key}" } }, // keep me
\t}
}
`;
const OURS = { type: 'stdio', command: process.execPath, args: [CLI, 'mcp'], env: {}, tools: ['*'] };

const servers = (file: string): Record<string, unknown> => {
  const config = parse(readFileSync(file, 'utf8')) as {
    mcpServers?: Record<string, unknown>;
    servers?: Record<string, unknown>;
  };
  return { ...config.mcpServers, ...config.servers };
};

/** What `install copilot --project` of an older version left: our server in .vscode/mcp.json, on record. */
function olderInstall(box: Sandbox, before: string | undefined): void {
  const dir = path.join(box.project, '.vscode');
  const made = before === undefined ? [dir] : [];
  const set = setJsonValue(before ?? '', ['servers', 'skillopt-sleep'], {
    type: 'stdio',
    command: process.execPath,
    args: [CLI, 'mcp'],
  });
  seed(box.project, { '.vscode/mcp.json': set.text });
  const file = realpathSync(path.join(dir, 'mcp.json'));
  const ledger = new Ledger(box.stateHome);
  ledger.set(file, {
    existed: before !== undefined,
    backup: before === undefined ? null : ledger.backup(file, before),
    written_sha256: written(set.text),
    created_dirs: made.map((d) => realpathSync(d)),
    inserted_at: set.insertedAt,
  });
  ledger.save();
}

describe('install copilot', () => {
  it('user level: merges into ~/.copilot/mcp-config.json and back to its bytes', async () => {
    const box = sandbox();
    seed(box.home, { '.copilot/mcp-config.json': COPILOT }, 0o600);
    const original = tree(box.home);
    expect(actions(await cli(box, ['install', 'copilot']))).toEqual({ 'mcp-config.json': 'merged' });
    const text = readFileSync(path.join(box.home, '.copilot/mcp-config.json'), 'utf8');
    onlyInserted(COPILOT, text);
    const config = JSON.parse(text) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers.github).toEqual({
      type: 'http',
      url: 'https://example.invalid/mcp',
      tools: ['*'],
    });
    expect(config.mcpServers['skillopt-sleep']).toEqual({
      type: 'local',
      command: process.execPath,
      args: [CLI, 'mcp'],
      tools: ['*'],
    });
    expect(tree(box.home)['.copilot/mcp-config.json']?.startsWith('600 ')).toBe(true);
    const installed = tree(box.home);
    expect((await cli(box, ['install', 'copilot'])).changed).toBe(false);
    expect(tree(box.home)).toEqual(installed);
    expect(actions(await cli(box, ['uninstall', 'copilot']))).toEqual({ 'mcp-config.json': 'restored' });
    expect(tree(box.home)).toEqual(original);
  });

  it('--project: merges into .mcp.json (mcpServers) and back; the .vscode/mcp.json is left alone', async () => {
    const box = sandbox();
    seed(box.project, { '.mcp.json': MCP_JSON, '.vscode/mcp.json': VSCODE });
    const original = tree(box.project);
    expect(actions(await cli(box, ['install', 'copilot', '--project']))).toEqual({ '.mcp.json': 'merged' });
    const text = readFileSync(path.join(box.project, '.mcp.json'), 'utf8');
    expect(onlyInserted(MCP_JSON, text)).toMatch(/\n {4}"skillopt-sleep": \{/);
    const config = JSON.parse(text) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(config.mcpServers)).toEqual(['db', 'skillopt-sleep']);
    expect(config.mcpServers['skillopt-sleep']).toEqual(OURS);
    expect(readFileSync(path.join(box.project, '.vscode/mcp.json'), 'utf8')).toBe(VSCODE);
    expect((await cli(box, ['install', 'copilot', '--project'])).changed).toBe(false);
    expect(actions(await cli(box, ['uninstall', 'copilot', '--project']))).toEqual({
      '.mcp.json': 'restored',
    });
    expect(tree(box.project)).toEqual(original);
  });

  it('moves an older install out of .vscode/mcp.json (one server, not two) and gives it its bytes back', async () => {
    const box = sandbox();
    seed(box.project, { '.vscode/mcp.json': VSCODE });
    const original = tree(box.project);
    olderInstall(box, VSCODE);
    const older = tree(box.project);

    const dry = await cli(box, ['install', 'copilot', '--project', '--dry-run']);
    expect(actions(dry)).toEqual({ '.mcp.json': 'created', 'mcp.json': 'restored' });
    expect(tree(box.project)).toEqual(older);

    const out = await cli(box, ['install', 'copilot', '--project']);
    expect(actions(out)).toEqual({ '.mcp.json': 'created', 'mcp.json': 'restored' });
    expect(readFileSync(path.join(box.project, '.vscode/mcp.json'), 'utf8')).toBe(VSCODE);
    expect(servers(path.join(box.project, '.vscode/mcp.json'))).not.toHaveProperty('skillopt-sleep');
    expect(servers(path.join(box.project, '.mcp.json'))).toEqual({ 'skillopt-sleep': OURS });

    expect((await cli(box, ['install', 'copilot', '--project'])).changed).toBe(false);
    expect(actions(await cli(box, ['uninstall', 'copilot', '--project']))).toEqual({
      '.mcp.json': 'removed',
    });
    expect(tree(box.project)).toEqual(original);
  });

  it('uninstall takes out an older install left in .vscode/mcp.json, and the folder it made', async () => {
    const box = sandbox();
    olderInstall(box, undefined);
    const out = await cli(box, ['uninstall', 'copilot', '--project']);
    expect(actions(out)).toEqual({ '.mcp.json': 'absent', 'mcp.json': 'removed' });
    expect(out.folders_removed).toEqual([realpathSync(box.project) + path.sep + '.vscode']);
    expect(tree(box.project)).toEqual({});
    expect((await cli(box, ['uninstall', 'copilot', '--project'])).changed).toBe(false);
  });

  it('shares its project entry with `install mcp --project`: written once, out with the last uninstall', async () => {
    for (const [first, second] of [
      ['mcp', 'copilot'],
      ['copilot', 'mcp'],
    ] as const) {
      const box = sandbox();
      expect(actions(await cli(box, ['install', first, '--project']))).toEqual({ '.mcp.json': 'created' });
      expect((await cli(box, ['install', second, '--project'])).changed).toBe(false);
      expect(servers(path.join(box.project, '.mcp.json'))).toEqual({ 'skillopt-sleep': OURS });
      // Either uninstall first: the other agent still reads the entry, so it stays.
      const kept = await cli(box, ['uninstall', first, '--project']);
      expect(actions(kept)).toEqual({ '.mcp.json': 'kept' });
      expect((kept.files as { note?: string }[])[0]?.note).toContain(`still used by the ${second} install`);
      expect(servers(path.join(box.project, '.mcp.json'))).toEqual({ 'skillopt-sleep': OURS });
      expect(actions(await cli(box, ['uninstall', second, '--project']))).toEqual({ '.mcp.json': 'removed' });
      expect(tree(box.project)).toEqual({});
    }
  });

  it('accepts and keeps a UTF-8 byte order mark (issue 37, item 14)', async () => {
    const box = sandbox();
    const bom = '\uFEFF';
    seed(box.project, { '.mcp.json': bom + MCP_JSON });
    seed(box.home, { '.copilot/mcp-config.json': bom + COPILOT });
    const project = tree(box.project);
    const home = tree(box.home);
    expect(actions(await cli(box, ['install', 'copilot', '--project']))).toEqual({ '.mcp.json': 'merged' });
    expect(actions(await cli(box, ['install', 'copilot']))).toEqual({ 'mcp-config.json': 'merged' });
    for (const file of [
      path.join(box.project, '.mcp.json'),
      path.join(box.home, '.copilot/mcp-config.json'),
    ]) {
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(bom), file).toBe(true);
      expect(Object.keys(servers(file))).toContain('skillopt-sleep');
    }
    await cli(box, ['uninstall', 'copilot', '--project']);
    await cli(box, ['uninstall', 'copilot']);
    expect(tree(box.project)).toEqual(project);
    expect(tree(box.home)).toEqual(home);
  });

  it('refuses a .mcp.json that is a symlink leading outside the project; a .vscode there is not read', async () => {
    const box = sandbox();
    const elsewhere = path.join(box.root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'mcp.json'), '{}');
    // Nothing of ours is on record in .vscode/: install neither follows nor reads it.
    symlinkSync(elsewhere, path.join(box.project, '.vscode'));
    await cli(box, ['install', 'copilot', '--project']);
    await cli(box, ['uninstall', 'copilot', '--project']);
    symlinkSync(path.join(elsewhere, 'mcp.json'), path.join(box.project, '.mcp.json'));
    const r = await runCli(box, ['install', 'copilot', '--project']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/outside .*refusing to follow a symlink/);
    expect(tree(elsewhere)).toEqual({ 'mcp.json': '644 {}' });
  });

  it('refuses a server of the same name the user wrote in .mcp.json; one in .vscode/mcp.json stays theirs', async () => {
    const box = sandbox();
    const own = '{"servers": {"skillopt-sleep": {"command": "my-build", "args": ["mcp"]}}}';
    seed(box.project, { '.vscode/mcp.json': own });
    await cli(box, ['install', 'copilot', '--project']);
    await cli(box, ['uninstall', 'copilot', '--project']);
    expect(tree(box.project)).toEqual({ '.vscode/': '755', '.vscode/mcp.json': `640 ${own}` });
    seed(box.project, { '.mcp.json': own.replace('"servers"', '"mcpServers"') });
    const r = await runCli(box, ['install', 'copilot', '--project']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already has its own "mcpServers\.skillopt-sleep" entry/);
  });
});
