/** What one transcript can make the harvest hold: a turn's text is capped, an oversize legacy file skipped. */
import { rmSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LEGACY_JSON_BYTES } from '../harvesters/codex/codex.js';
import { MAX_WHOLE_JSON_BYTES } from '../src/core/io/regular-file.js';
import { MAX_TURN_TEXT_CHARS, truncationMarker } from '../src/harvest/turn-text.js';
import {
  CLAUDE_TRANSCRIPT,
  CODEX_ROLLOUT,
  claudeRecord,
  codexMessage,
  codexMeta,
  harvestHome,
} from './harvest-home.js';

let home = '';
afterEach(() => {
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

describe('harvest size limits', () => {
  it('keeps at most MAX_TURN_TEXT_CHARS of a turn, marked as cut', async () => {
    const h = harvestHome('sos-size-');
    home = h.home;
    const prompt = `${'log line of a pasted build output\n'.repeat(12_000)}end`; // 408,003 characters
    h.write(
      CLAUDE_TRANSCRIPT,
      `${claudeRecord(0, 'user', prompt)}\n${claudeRecord(1, 'assistant', 'Short.')}\n`,
    );
    h.write(CODEX_ROLLOUT, `${codexMeta()}\n${codexMessage('user', prompt)}\n`);
    await h.run(['claude', 'codex']);
    const sessions = h.sessions();
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      const text = session.turns[0]?.text ?? '';
      const marker = truncationMarker(prompt.length);
      expect(text.endsWith(marker)).toBe(true);
      const kept = text.slice(0, -marker.length);
      expect(kept.length).toBeLessThanOrEqual(MAX_TURN_TEXT_CHARS);
      expect(kept.length).toBeGreaterThan(MAX_TURN_TEXT_CHARS - 300);
      expect(prompt.startsWith(kept)).toBe(true);
    }
    expect(sessions.find((s) => s.source === 'claude')?.turns[1]?.text).toBe('Short.');
  });

  it('skips a legacy Codex .json over MAX_LEGACY_JSON_BYTES with a warning, without reading it', async () => {
    const h = harvestHome('sos-size-');
    home = h.home;
    const file = h.write('.codex/sessions/rollout-2025-08-23-0418f71e-0000-4000-8000-0000000000ff.json', '');
    truncateSync(file, MAX_LEGACY_JSON_BYTES + 1); // sparse: nothing written, nothing to read
    const rssBefore = process.memoryUsage().rss;
    const summary = await h.run(['codex']);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(MAX_LEGACY_JSON_BYTES / 2);
    expect(summary.unreadable.map((u) => u.path)).toEqual([file]);
    const warning = h.logger.lines.find((l) => l.startsWith('warn: ') && l.includes(file)) ?? '';
    expect(warning).toContain(`over the ${MAX_LEGACY_JSON_BYTES}-byte limit`);
    expect(h.sessions()).toEqual([]);
  });

  it('skips a VS Code chat .json over MAX_WHOLE_JSON_BYTES with a warning', async () => {
    const h = harvestHome('sos-size-');
    home = h.home;
    const rel = path.relative(h.home, path.join(h.vscodeStorage, 'ws1', 'chatSessions', 'huge.json'));
    const file = h.write(rel, '');
    truncateSync(file, MAX_WHOLE_JSON_BYTES + 1);
    const summary = await h.run(['copilot']);
    expect(summary.unreadable.map((u) => u.path)).toEqual([file]);
    expect(summary.unreadable[0]?.error).toContain(`over the ${MAX_WHOLE_JSON_BYTES}-byte limit`);
  });
});
