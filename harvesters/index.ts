/** The registry of transcript sources. Adding a source = one harvester file + one line here. */
import { claude } from './claude-code.js';
import type { Harvester, SourceId } from './types.js';

export const harvesters = { claude } satisfies Record<SourceId, Harvester>;

export function harvesterFor(id: SourceId): Harvester {
  return harvesters[id];
}
