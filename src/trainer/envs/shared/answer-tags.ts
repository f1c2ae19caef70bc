/**
 * The final answer of a reply, as the reference's environments read it: the text of the last
 * `<answer>…</answer>` pair (any case, across lines), else the last non-empty line, else the whole reply.
 */
export function finalAnswer(reply: string): string {
  const tagged = [...reply.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)].at(-1)?.[1];
  if (tagged !== undefined) return tagged.trim();
  const lines = reply
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.at(-1) ?? reply.trim();
}

/** The `{skill_section}` of the reference's rollout prompts: the skill under a heading, or nothing. */
export function skillSection(skill: string): string {
  return skill.trim() === '' ? '' : `## Skill\n${skill.trim()}\n\n`;
}
