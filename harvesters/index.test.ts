import { describe, expect, it } from 'vitest';
import { harvesterFor, harvesters } from './index.js';
import type { SourceId } from '../src/core/session.js';

describe('harvester registry', () => {
  it('lists exactly the known sources', () => {
    expect(Object.keys(harvesters).sort()).toEqual([
      'aider',
      'claude',
      'cline',
      'codex',
      'copilot',
      'copilot-cli',
      'cursor-cli',
      'cursor-ide',
      'gemini',
      'goose',
      'opencode',
      'pi',
      'roo',
    ]);
  });

  it('maps each id to the harvester that reports that id', () => {
    for (const id of Object.keys(harvesters) as SourceId[]) {
      expect(harvesterFor(id).id).toBe(id);
      expect(harvesterFor(id)).toBe(harvesters[id]);
    }
  });
});
