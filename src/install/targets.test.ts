import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrationsDir } from '../config/paths.js';
import { agentPieces, AGENTS, legacyPieces, parseAgent, type TargetContext } from './targets.js';

const ctx = (over: Partial<TargetContext> = {}): TargetContext => ({
  env: { HOME: '/h' },
  project: undefined,
  node: '/usr/bin/node',
  cli: '/pkg/dist/src/cli/main.js',
  integrations: integrationsDir(),
  ...over,
});

describe('agentPieces', () => {
  it('puts each agent where it reads its config, at the user level and in a project', () => {
    const files = (agent: (typeof AGENTS)[number], c: TargetContext): string[] =>
      agentPieces(agent, c).map((p) => p.path);
    expect(files('claude-code', ctx())).toEqual([
      '/h/.claude/skills/skillopt-sleep/SKILL.md',
      '/h/.claude/commands/skillopt-sleep-handoff.md',
      '/h/.claude/settings.json',
    ]);
    expect(files('codex', ctx())).toEqual([
      '/h/.agents/skills/skillopt-sleep/SKILL.md',
      '/h/.codex/config.toml',
    ]);
    expect(files('codex', ctx({ env: { HOME: '/h', CODEX_HOME: '/c' } }))[1]).toBe('/c/config.toml');
    expect(files('copilot', ctx())).toEqual(['/h/.copilot/mcp-config.json']);
    expect(files('copilot', ctx({ project: '/p' }))).toEqual(['/p/.mcp.json']);
    expect(files('mcp', ctx())).toEqual(['/h/.claude.json']);
    expect(files('mcp', ctx({ project: '/p' }))).toEqual(['/p/.mcp.json']);
  });

  it('runs the MCP server as this node with the installed CLI, and the hook by absolute paths', () => {
    const [piece] = agentPieces('mcp', ctx());
    expect(piece?.kind === 'json' && piece.value).toEqual({
      type: 'stdio',
      command: '/usr/bin/node',
      args: ['/pkg/dist/src/cli/main.js', 'mcp'],
      env: {},
    });
    const hook = agentPieces('claude-code', ctx()).find((p) => p.kind === 'hook');
    expect(hook?.kind === 'hook' && hook.value.hooks[0]?.command).toBe(
      `/usr/bin/node ${path.join(integrationsDir(), 'claude-code', 'hooks', 'session-end.mjs')}`,
    );
  });

  it('quotes the hook command so sh reads back a node path holding quotes and dollars literally', () => {
    const node = `/opt/it's "$HOME"/node`;
    const hook = agentPieces('claude-code', ctx({ node })).find((p) => p.kind === 'hook');
    const command = hook?.kind === 'hook' ? (hook.value.hooks[0]?.command ?? '') : '';
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${command}`], { encoding: 'utf8' }).split('\n');
    expect(words[0]).toBe(node);
    expect(words[1]).toBe(path.join(integrationsDir(), 'claude-code', 'hooks', 'session-end.mjs'));
  });

  it('gives Copilot and Claude Code one project entry, and knows the legacy .vscode/mcp.json', () => {
    const [copilot] = agentPieces('copilot', ctx({ project: '/p' }));
    const [claude] = agentPieces('mcp', ctx({ project: '/p' }));
    expect(copilot).toEqual(claude);
    expect(copilot?.kind === 'json' && copilot.value).toEqual({
      type: 'stdio',
      command: '/usr/bin/node',
      args: ['/pkg/dist/src/cli/main.js', 'mcp'],
      env: {},
      tools: ['*'],
    });
    expect(legacyPieces('copilot', ctx({ project: '/p' })).map((p) => p.path)).toEqual([
      '/p/.vscode/mcp.json',
    ]);
    expect(legacyPieces('copilot', ctx())).toEqual([]);
    expect(legacyPieces('mcp', ctx({ project: '/p' }))).toEqual([]);
  });

  it("writes every skill and command with this installation's CLI by path, never npx", () => {
    const c = ctx({ node: '/opt/node 20/bin/node', cli: "/home/o'brien/sleep/dist/src/cli/main.js" });
    const texts = [...agentPieces('claude-code', c), ...agentPieces('codex', c)].flatMap((p) =>
      p.kind === 'file' ? [p.content] : [],
    );
    expect(texts).toHaveLength(3);
    for (const text of texts) {
      expect(text).toContain(`'/opt/node 20/bin/node' '/home/o'\\''brien/sleep/dist/src/cli/main.js' `);
      expect(text).not.toMatch(/npx|CLAUDE_PLUGIN_ROOT|\{\{/);
    }
  });

  it('refuses a path with a control character before anything is planned', () => {
    expect(() => agentPieces('codex', ctx({ node: '/usr/bin/node\n[evil]' }))).toThrow(/control character/);
    expect(() => agentPieces('claude-code', ctx({ cli: 'x', node: '/n\u001b' }))).toThrow(
      /control character/,
    );
  });

  it('knows the four agents and refuses others', () => {
    expect(AGENTS.map(parseAgent)).toEqual(['claude-code', 'codex', 'copilot', 'mcp']);
    expect(() => parseAgent('cursor')).toThrow(/unknown agent "cursor"/);
  });

  it('ships a Codex skill whose name is its folder and whose description fits in 1024 characters', () => {
    const [skill] = agentPieces('codex', ctx());
    const text = skill?.kind === 'file' ? skill.content : '';
    expect(/^name: skillopt-sleep$/m.test(text)).toBe(true);
    const description = /^description: (.+)$/m.exec(text)?.[1] ?? '';
    expect(description.length).toBeGreaterThan(0);
    expect(description.length).toBeLessThanOrEqual(1024);
  });
});
