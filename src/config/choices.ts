/**
 * The fixed choices of config keys (backends, sources, scopes, gate metrics), apart from the zod schema
 * so the CLI's option definitions (and `--help`) need not load zod; `schema.ts` re-exports them.
 */
export const BACKENDS = [
  'mock',
  'openai',
  'azure-openai',
  'anthropic',
  'claude-code',
  'codex',
  'handoff',
] as const;
export type BackendName = (typeof BACKENDS)[number];

/** The sources a harvest can read. */
export const HARVEST_SOURCES = [
  'claude',
  'codex',
  'copilot',
  'copilot-cli',
  'gemini',
  'pi',
  'cline',
  'roo',
  'cursor-cli',
  'aider',
  'opencode',
  'goose',
  'cursor-ide',
] as const;

/** What `--source` and `transcript_source` take: one source, or `all`. */
export const TRANSCRIPT_SOURCES = ['all', ...HARVEST_SOURCES] as const;
export type TranscriptSource = (typeof TRANSCRIPT_SOURCES)[number];
export const SCOPES = ['invoked', 'all'] as const;

export const GATE_METRICS = ['hard', 'soft', 'mixed'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];

/**
 * Source names the reference (microsoft/SkillOpt) spells differently: `copilot_cli`, `cursor` (the same
 * Cursor agent transcripts), and `auto` for every source.
 */
export const SOURCE_ALIASES: Readonly<Record<string, TranscriptSource>> = {
  copilot_cli: 'copilot-cli',
  cursor: 'cursor-cli',
  cursor_cli: 'cursor-cli',
  auto: 'all',
};

/** Most attempts per task and side a paired comparison takes (`lift_samples`, `--samples`). */
export const MAX_LIFT_SAMPLES = 16;
