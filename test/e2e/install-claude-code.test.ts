/** `install claude-code`: skill, handoff command and a SessionEnd hook merged into the user's settings. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../src/install/agent-text.js';
import { CLI, runCli, sandbox } from './cli-helpers.js';
import { actions, cli, onlyInserted, seed, tree } from './install-helpers.js';

const SETTINGS = `{
    // my Claude Code settings
    "model": "opus",
    "hooks": {
        "SessionEnd": [
            { "hooks": [ { "type": "command", "command": "~/bin/log-session.sh" } ] }
        ],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}]
    },
    "permissions": { "allow": ["Bash(npm test:*)",] },
}
`;
const PLUGIN = path.resolve(import.meta.dirname, '../../integrations/claude-code');

interface Settings {
  hooks: Record<string, { hooks: { command: string }[] }[]>;
}

describe('install claude-code (user level)', () => {
  it('copies the skill and command, appends our SessionEnd hook after the user one, and goes back byte for byte', async () => {
    const box = sandbox();
    seed(box.home, {
      '.claude/settings.json': SETTINGS,
      '.claude/skills/mine/SKILL.md': '---\nname: mine\n---\n',
    });
    const original = tree(box.home);

    const first = await cli(box, ['install', 'claude-code']);
    expect(actions(first)).toEqual({
      'SKILL.md': 'created',
      'skillopt-sleep-handoff.md': 'created',
      'settings.json': 'merged',
    });
    const text = readFileSync(path.join(box.home, '.claude/settings.json'), 'utf8');
    const added = onlyInserted(SETTINGS, text);
    expect(added).toContain('session-end.mjs');
    // Plain JSON once the user's comments and trailing commas are set aside.
    const settings = JSON.parse(text.replace(/\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')) as Settings;
    const ends = settings.hooks.SessionEnd ?? [];
    expect(ends).toHaveLength(2);
    expect(ends[0]?.hooks[0]?.command).toBe('~/bin/log-session.sh');
    expect(ends[1]?.hooks[0]?.command).toBe(
      `${shellWord(process.execPath)} ${shellWord(path.join(PLUGIN, 'hooks', 'session-end.mjs'))}`,
    );
    expect(settings.hooks.PreToolUse?.[0]?.hooks[0]?.command).toBe('guard');
    // The copies run this installation's CLI by path: the plugin's launcher is for plugin installs.
    const run = `${shellWord(process.execPath)} ${shellWord(CLI)}`;
    const plugin = 'node "${CLAUDE_PLUGIN_ROOT}/scripts/skillopt-sleep.mjs"';
    const skill = readFileSync(path.join(box.home, '.claude/skills/skillopt-sleep/SKILL.md'), 'utf8');
    expect(skill).toBe(
      readFileSync(path.join(PLUGIN, 'skills/skillopt-sleep/SKILL.md'), 'utf8').replaceAll(plugin, run),
    );
    expect(skill).toContain(`\`${run} status --json\``);
    const command = readFileSync(path.join(box.home, '.claude/commands/skillopt-sleep-handoff.md'), 'utf8');
    expect(command).toContain(`\`${run} handoff next --json $ARGUMENTS\``);
    expect(command).toContain(`allowed-tools: ${JSON.stringify(`Bash(${run}:*), Task`)}`);
    for (const text of [skill, command]) expect(text).not.toMatch(/npx|CLAUDE_PLUGIN_ROOT/);
    const installed = tree(box.home);
    expect(installed['.claude/skills/skillopt-sleep/']).toBe('755');
    expect(installed['.claude/commands/skillopt-sleep-handoff.md']?.startsWith('644 ')).toBe(true);
    expect(installed['.claude/settings.json']?.startsWith('640 ')).toBe(true);

    expect((await cli(box, ['install', 'claude-code'])).changed).toBe(false);
    expect(tree(box.home)).toEqual(installed);

    const removed = await cli(box, ['uninstall', 'claude-code']);
    expect(actions(removed)).toEqual({
      'SKILL.md': 'removed',
      'skillopt-sleep-handoff.md': 'removed',
      'settings.json': 'restored',
    });
    expect(tree(box.home)).toEqual(original);
  });

  it('a settings.json changed since install loses only our hook; a skill the user edited is kept', async () => {
    const box = sandbox();
    seed(box.home, { '.claude/settings.json': SETTINGS });
    await cli(box, ['install', 'claude-code']);
    const file = path.join(box.home, '.claude/settings.json');
    const changed = readFileSync(file, 'utf8').replace('"opus"', '"sonnet"');
    seed(box.home, {
      '.claude/settings.json': changed,
      '.claude/skills/skillopt-sleep/SKILL.md': 'my own notes\n',
    });
    const out = await cli(box, ['uninstall', 'claude-code']);
    expect(actions(out)).toEqual({
      'SKILL.md': 'kept',
      'skillopt-sleep-handoff.md': 'removed',
      'settings.json': 'edited',
    });
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS.replace('"opus"', '"sonnet"'));
    expect(readFileSync(path.join(box.home, '.claude/skills/skillopt-sleep/SKILL.md'), 'utf8')).toBe(
      'my own notes\n',
    );
  });

  it('--project writes .claude/ in the project and removes the folders it made', async () => {
    const box = sandbox();
    const out = await cli(box, ['install', 'claude-code', '--project', box.project]);
    expect(out.scope).toBe('project');
    expect(Object.keys(tree(box.project))).toEqual(
      expect.arrayContaining(['.claude/settings.json', '.claude/commands/skillopt-sleep-handoff.md']),
    );
    expect(JSON.parse(readFileSync(path.join(box.project, '.claude/settings.json'), 'utf8'))).toHaveProperty(
      'hooks.SessionEnd',
    );
    await cli(box, ['uninstall', 'claude-code', '--project', box.project]);
    expect(tree(box.project)).toEqual({});
  });

  it('refuses an unknown agent and a settings.json that does not parse (exit 2, nothing written)', async () => {
    const box = sandbox();
    const unknown = await runCli(box, ['install', 'cursor']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown agent "cursor"/);
    seed(box.home, { '.claude/settings.json': '{ "hooks": ' });
    const before = tree(box.root);
    const bad = await runCli(box, ['install', 'claude-code']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/settings\.json does not parse as JSON/);
    expect(tree(box.root)).toEqual(before);
  });
});
