/**
 * Sessions that no person started: our own replays and graders, and other memory tools' agents.
 * Learning from them would train the skill on its own output, so they are dropped at ingest.
 */

/** Put into every replay prompt by the real backends; a session whose first prompt carries it is ours. */
export const REPLAY_MARKER = '<!-- skillopt-sleep:replay -->';

const REPLAY_SIGNATURES: readonly string[] = [
  REPLAY_MARKER,
  'You are SkillOpt-Sleep',
  'You are a strict grader',
  'You are driving **SkillOpt-Sleep**',
];

/** Other memory tools' agent prompts (the reference's list); more via SKILLOPT_SLEEP_AGENT_MARKERS. */
const OTHER_AGENT_SIGNATURES: readonly string[] = ['You are a Claude-Mem', 'Hello memory agent'];

/** True when the prompt was written by our own replays or graders, not by a person. */
export function isReplayPrompt(text: string): boolean {
  return REPLAY_SIGNATURES.some((signature) => text.includes(signature));
}

/** True when a session whose first prompt is `text` was started by a machine, not a person. */
export function isMachineSessionPrompt(text: string, extraMarkers: readonly string[] = []): boolean {
  if (isReplayPrompt(text)) return true;
  return [...OTHER_AGENT_SIGNATURES, ...extraMarkers].some((m) => m !== '' && text.includes(m));
}

/** Comma-separated extra markers from the environment. */
export function agentMarkersFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}
