/** Which transcript sources a night's config selects. */
import type { SourceId } from '../core/session.js';
import type { Config } from '../config/schema.js';

/** The sources a config selects (undefined = all). */
export function selectedSources(config: Config): SourceId[] | undefined {
  return config.transcript_source === 'all' ? undefined : [config.transcript_source];
}
