/** Builders the harvesters' tests share for what a parse should yield (not shipped: see package.json `files`). */
import type { ToolAction } from '../../src/core/session.js';

/** One action as a harvester yields it. */
export const act = (
  kind: ToolAction['kind'],
  tool: string,
  target = '',
  added = '',
  removed = '',
): ToolAction => ({ kind, tool, target, added, removed });

/** One turn as a harvester yields it: no tools, no errors, at offset 0 unless `extra` says otherwise. */
export const turn = (role: 'user' | 'assistant', text: string, ts: number | null, extra: object = {}) => ({
  role,
  text,
  ts,
  toolNames: [],
  actions: [],
  toolErrors: 0,
  interrupted: false,
  offset: 0,
  ...extra,
});
