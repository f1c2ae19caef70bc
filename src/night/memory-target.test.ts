import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/schema.js';
import { dominantAgent, resolveMemoryPath } from './memory-target.js';

describe('memory target', () => {
  it('follows the agent most sessions came from, ties in claude, codex, copilot order', () => {
    expect(dominantAgent(['codex:a', 'codex:b', 'claude:c'])).toBe('codex');
    expect(dominantAgent(['codex:a', 'claude:c'])).toBe('claude');
    expect(dominantAgent(['copilot-cli:x'])).toBe('copilot-cli');
    expect(dominantAgent(['aider:a', 'cursor-cli:b', 'aider:c'])).toBe('aider');
    expect(dominantAgent(['sess_0', 'unknown:1'])).toBeNull();
  });

  it('maps agents to their memory files, honours transcript_source and memory_target', () => {
    const config = defaultConfig();
    const project = '/p';
    expect(resolveMemoryPath(project, config, ['codex:a']).livePath).toBe(path.join(project, 'AGENTS.md'));
    expect(resolveMemoryPath(project, config, ['claude:a']).livePath).toBe(path.join(project, 'CLAUDE.md'));
    expect(resolveMemoryPath(project, config, ['copilot:a']).livePath).toBe(
      path.join(project, '.github/copilot-instructions.md'),
    );
    expect(resolveMemoryPath(project, config, ['cursor-cli:a']).livePath).toBe(
      path.join(project, '.cursor/rules/skillopt-sleep-learned.mdc'),
    );
    expect(resolveMemoryPath(project, config, ['aider:a']).livePath).toBe(
      path.join(project, 'CONVENTIONS.md'),
    );
    // No sessions (a tasks file): the configured source, else Claude Code.
    expect(resolveMemoryPath(project, config, []).livePath).toBe(path.join(project, 'CLAUDE.md'));
    expect(resolveMemoryPath(project, { ...config, transcript_source: 'codex' }, []).livePath).toBe(
      path.join(project, 'AGENTS.md'),
    );
    expect(resolveMemoryPath(project, { ...config, memory_target: 'docs/MEMORY.md' }, ['codex:a'])).toEqual({
      livePath: path.join(project, 'docs/MEMORY.md'),
      chosenBy: 'config',
    });
  });
});
