/** Claude Code transcript lines in the real record format, for tests that harvest. */
export function claudeSessionLines(cwd: string, sessionId: string, prompt: string, answer: string): string[] {
  const base = { sessionId, cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
  const now = Date.now();
  return [
    {
      ...base,
      type: 'user',
      uuid: `${sessionId}-1`,
      parentUuid: null,
      timestamp: new Date(now - 60_000).toISOString(),
      message: { role: 'user', content: prompt },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `${sessionId}-2`,
      parentUuid: `${sessionId}-1`,
      timestamp: new Date(now - 55_000).toISOString(),
      message: {
        id: `msg_${sessionId}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: answer }],
      },
    },
  ].map((l) => JSON.stringify(l));
}

/** The folder Claude Code keeps a project's transcripts in, under `home`. */
export const claudeProjectDir = (home: string, cwd: string): string =>
  `${home}/.claude/projects/${cwd.replace(/[/.]/g, '-')}`;
