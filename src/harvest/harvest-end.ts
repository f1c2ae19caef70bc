/** What a harvest tells the user when it ends: its phase line, and the offer to forget what is now excluded. */
import type { Logger } from '../core/logger.js';
import type { HarvestSummary } from './harvest.js';
import { IGNORE_FILE } from './harvest-rules.js';

/** The phase line a harvest ends with (`--progress`, the daemon's log). */
export function harvestProgressLine(summary: HarvestSummary): string {
  return `harvest: ${summary.filesParsed} of ${summary.filesSeen} transcript files changed, ${summary.sessionsStored} sessions stored, ${summary.badLines} bad lines skipped`;
}

/** The offer to forget what was stored before the current exclusions, or null when there is nothing. */
export function excludedStoredNote(summary: Pick<HarvestSummary, 'excludedStored'>): string | null {
  const n = summary.excludedStored;
  if (n === 0) return null;
  return `${n} stored session${n === 1 ? ' was' : 's were'} harvested before your exclusions (exclude_paths, include_paths, exclude_sources, ${IGNORE_FILE}) kept ${n === 1 ? 'it' : 'them'} out; \`skillopt-sleep forget --excluded\` deletes ${n === 1 ? 'it' : 'them'} (add --dry-run to see first)`;
}

/** The end of a harvest, as every command that harvests says it. */
export function logHarvestEnd(summary: HarvestSummary, logger: Logger): void {
  logger.progress(harvestProgressLine(summary));
  const excludedNote = excludedStoredNote(summary);
  if (excludedNote) logger.warn(excludedNote);
}
