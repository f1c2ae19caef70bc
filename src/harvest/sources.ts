/** Which transcript sources a config selects. */
import { SOURCE_IDS } from '../../harvesters/index.js';
import type { SourceId } from '../core/session.js';
import type { Config } from '../config/schema.js';

/** The sources a config selects (undefined = all): `transcript_source` less `exclude_sources`. */
export function selectedSources(config: Config): SourceId[] | undefined {
  const chosen: readonly SourceId[] =
    config.transcript_source === 'all' ? SOURCE_IDS : [config.transcript_source];
  if (config.exclude_sources.length === 0)
    return config.transcript_source === 'all' ? undefined : [...chosen];
  return chosen.filter((s) => !config.exclude_sources.includes(s));
}
