/**
 * Layered config: defaults < <home>/config.json < <project>/.skillopt-sleep/config.json < flags typed.
 * Every problem names the file and the key; nothing is silently ignored. The project's file is
 * untrusted (it comes with the repository): it may only set what `project-trust.ts` allows.
 */
import { readFileSync } from 'node:fs';
import { didYouMean } from '../core/closest-name.js';
import { ConfigError, errorMessage, errnoCode } from '../core/errors.js';
import { nestsDeeperThan, tooDeep } from '../core/io/json-depth.js';
import { projectConfigFile, userConfigFile } from './paths.js';
import { projectConfigRefusals, projectRefusalMessage } from './project-trust.js';
import { CONFIG_KEYS, configSchema, crossKeyProblems, type Config, type ConfigKey } from './schema.js';

export type ConfigLayer = { source: string; values: Record<string, unknown> };

export interface LoadedConfig {
  config: Config;
  /** Which layer each key's value came from ('default', a file path, or 'flag'). */
  origins: Partial<Record<keyof Config, string>>;
}

/** Read one JSON config file; a missing file is an empty layer. */
export function readConfigFile(file: string): ConfigLayer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = errnoCode(err);
    // ENOTDIR: a folder on the way is a file (a project folder that is gone), so there is no config.
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new ConfigError(`${file}: cannot read config file: ${errorMessage(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: invalid JSON: ${errorMessage(err)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`${file}: expected a JSON object like {"edit_budget": 4}`);
  }
  // A project's file comes with the repository: its values are checked and quoted recursively.
  if (nestsDeeperThan(parsed)) throw new ConfigError(`${file}: ${tooDeep()}`);
  return { source: file, values: parsed as Record<string, unknown> };
}

/** Where a value came from, for messages: a file path, or the options typed on the command line. */
const describeSource = (source: string): string => (source === 'flag' ? 'command-line option' : source);

function checkLayer(layer: ConfigLayer): void {
  const source = describeSource(layer.source);
  for (const [key, value] of Object.entries(layer.values)) {
    if (!(CONFIG_KEYS as string[]).includes(key)) {
      const hint = didYouMean(key, CONFIG_KEYS);
      throw new ConfigError(
        `${source}: unknown key "${key}"${hint || ` (known keys: ${CONFIG_KEYS.join(', ')})`}`,
      );
    }
    const field = configSchema.shape[key as keyof Config];
    const result = field.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new ConfigError(
        `${source}: key "${key}": ${issue?.message ?? 'invalid value'} (got ${JSON.stringify(value)})`,
      );
    }
  }
}

export function mergeConfig(layers: ConfigLayer[]): LoadedConfig {
  const merged: Record<string, unknown> = {};
  const origins: LoadedConfig['origins'] = {};
  for (const layer of layers) {
    checkLayer(layer);
    for (const [key, value] of Object.entries(layer.values)) {
      if (value === undefined) continue;
      merged[key] = value;
      origins[key as keyof Config] = layer.source;
    }
  }
  const config = configSchema.parse(merged);
  for (const [keys, message] of crossKeyProblems(config)) {
    // Blame the key set last (a flag over a file over the defaults): that is the one the user just chose.
    const layerOf = (k: ConfigKey): number => layers.findIndex((l) => l.source === origins[k]);
    const key = [...keys].sort((a, b) => layerOf(b) - layerOf(a))[0] as ConfigKey;
    throw new ConfigError(`${describeSource(origins[key] ?? 'defaults')}: key "${key}": ${message}`);
  }
  return { config, origins };
}

/**
 * Refuse a project layer that sets what only the user may (`project-trust.ts`), before anything of
 * the night is read or run. `below` is what the defaults and the user's own file give.
 */
function checkProjectLayer(
  layer: ConfigLayer,
  below: Config,
  at: { project: string; userConfig: string; flagFor?: (key: ConfigKey) => string | undefined },
): void {
  checkLayer(layer);
  const refusals = projectConfigRefusals(layer.values, below, at.project);
  if (refusals.length > 0)
    throw new ConfigError(
      projectRefusalMessage(layer.source, refusals, at.userConfig, at.flagFor),
      'project_config_refused',
    );
}

/**
 * Load the full stack for a project; `flags` holds only the options the user actually typed, and
 * `flagFor` names the option of a key, for the message that refuses a project's setting.
 */
export function loadConfig(
  home: string,
  project: string,
  flags: Record<string, unknown>,
  flagFor?: (key: ConfigKey) => string | undefined,
): LoadedConfig {
  const layers: ConfigLayer[] = [];
  const userConfig = userConfigFile(home);
  const user = readConfigFile(userConfig);
  if (user) layers.push(user);
  const proj = readConfigFile(projectConfigFile(project));
  if (proj) {
    const below = mergeConfig([...layers]).config;
    checkProjectLayer(proj, below, { project, userConfig, ...(flagFor ? { flagFor } : {}) });
    layers.push(proj);
  }
  layers.push({ source: 'flag', values: flags });
  return mergeConfig(layers);
}

/** The defaults and the user's own config file, without any project's (what applies to every project). */
export function userConfig(home: string): Config {
  const user = readConfigFile(userConfigFile(home));
  return mergeConfig(user ? [user] : []).config;
}
