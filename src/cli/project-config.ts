/** A command's effective config (apart from `context.ts`, so commands that read no config do not load the config loader: zod schemas, TOML and YAML parsers). */
import type { Command } from 'commander';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { setRedactPatterns } from '../core/redact-user.js';
import type { CliContext } from './context.js';
import { flagForKey, typedConfigFlags } from './options.js';

/**
 * The effective config of `project`. Its `redact_patterns` (the user's: a project may not set them) apply
 * from here on to every text this command stores or sends (the run's redaction scope, see `runCli`).
 */
export function projectConfig(ctx: CliContext, project: string, cmd: Command): LoadedConfig {
  const loaded = loadConfig(ctx.home, project, typedConfigFlags(cmd), flagForKey);
  setRedactPatterns(loaded.config.redact_patterns);
  return loaded;
}
