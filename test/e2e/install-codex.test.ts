/** `install codex`: the skill and the MCP table in a config.toml the user already has, and back. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, sandbox } from './cli-helpers.js';
import { actions, cli, onlyInserted, seed, tree } from './install-helpers.js';

const CONFIG = `# Codex — my settings
model = "o3"     # the good one
approval_policy   =   "on-request"

[mcp_servers.docs]   # docs lookups
command = "docs-mcp"
args = [ "--port",
  "9" ]

[profiles.fast]
model = "o4-mini"`; // no final newline, on purpose

describe('install codex (user level)', () => {
  it('adds the skill and one [mcp_servers.skillopt-sleep] block, is idempotent, and uninstalls to the original bytes', async () => {
    const box = sandbox();
    seed(box.home, { '.codex/config.toml': CONFIG });
    const original = tree(box.home);

    const first = await cli(box, ['install', 'codex']);
    expect(actions(first)).toEqual({ 'SKILL.md': 'created', 'config.toml': 'merged' });
    const config = readFileSync(path.join(box.home, '.codex/config.toml'), 'utf8');
    const block = onlyInserted(CONFIG, config);
    expect(block).toContain('[mcp_servers.skillopt-sleep]');
    const parsed = parse(config) as {
      mcp_servers: Record<string, unknown>;
      profiles: unknown;
      model: string;
    };
    expect(parsed.mcp_servers['skillopt-sleep']).toEqual({ command: process.execPath, args: [CLI, 'mcp'] });
    expect(parsed.mcp_servers.docs).toEqual({ command: 'docs-mcp', args: ['--port', '9'] });
    expect(parsed.model).toBe('o3');
    const skill = readFileSync(path.join(box.home, '.agents/skills/skillopt-sleep/SKILL.md'), 'utf8');
    const description = /^description: (.*)$/m.exec(skill)?.[1] ?? '';
    expect(/^name: skillopt-sleep$/m.test(skill)).toBe(true);
    expect(description.length).toBeGreaterThan(20);
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(skill).toContain('handoff next --json');
    expect(skill).toContain('handoff answer ID');
    const installed = tree(box.home);
    expect(installed['.codex/config.toml']?.startsWith('640 ')).toBe(true);

    const again = await cli(box, ['install', 'codex']);
    expect(again.changed).toBe(false);
    expect(actions(again)).toEqual({ 'SKILL.md': 'unchanged', 'config.toml': 'unchanged' });
    expect(tree(box.home)).toEqual(installed);
    expect((await runCli(box, ['install', 'codex'])).stdout).toMatch(/already installed/);

    const removed = await cli(box, ['uninstall', 'codex']);
    expect(actions(removed)).toEqual({ 'SKILL.md': 'removed', 'config.toml': 'restored' });
    expect(tree(box.home)).toEqual(original);
    expect((await cli(box, ['uninstall', 'codex'])).changed).toBe(false);
  });

  it('after the user edits config.toml, uninstall cuts out only our block', async () => {
    const box = sandbox();
    seed(box.home, { '.codex/config.toml': `${CONFIG}\n` });
    await cli(box, ['install', 'codex']);
    const file = path.join(box.home, '.codex/config.toml');
    const edited = `${readFileSync(file, 'utf8')}\n[mcp_servers.later]\ncommand = "later"\n`;
    seed(box.home, { '.codex/config.toml': edited });
    expect(actions(await cli(box, ['uninstall', 'codex']))['config.toml']).toBe('edited');
    expect(readFileSync(file, 'utf8')).toBe(`${CONFIG}\n\n[mcp_servers.later]\ncommand = "later"\n`);
  });

  it('--dry-run prints the block and writes nothing; a config.toml that does not parse stops it (exit 2)', async () => {
    const box = sandbox();
    seed(box.home, { '.codex/config.toml': CONFIG });
    const before = tree(box.root);
    const dry = await runCli(box, ['install', 'codex', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+[mcp_servers.skillopt-sleep]');
    expect(tree(box.root)).toEqual(before);

    seed(box.home, { '.codex/config.toml': 'model = "o3\n[broken' });
    const broken = tree(box.root);
    const bad = await runCli(box, ['install', 'codex']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/config\.toml does not parse as TOML/);
    expect(tree(box.root)).toEqual(broken);
  });

  it('--project writes .agents/skills and .codex/config.toml in the project', async () => {
    const box = sandbox();
    const out = await cli(box, ['install', 'codex', '--project']);
    expect(out.scope).toBe('project');
    expect(Object.keys(tree(box.project)).sort()).toEqual(
      expect.arrayContaining(['.agents/skills/skillopt-sleep/SKILL.md', '.codex/config.toml']),
    );
    await cli(box, ['uninstall', 'codex', '--project']);
    expect(tree(box.project)).toEqual({});
  });
});
