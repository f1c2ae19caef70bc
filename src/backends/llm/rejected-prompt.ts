/** The rejected-edit buffer as the reflect prompt shows it: two lists with different instructions. */
import type { RejectedEditMemory } from '../types.js';
import { madeHeldOutWorse } from '../../core/rejected-edit.js';

const line = (r: RejectedEditMemory): string =>
  `- [${r.op}] ${r.content} (score change ${r.delta.toFixed(3)}${r.reason ? `: ${r.reason}` : ''})`;

/** '' when nothing was refused before. */
export function renderRejected(buffer: RejectedEditMemory[]): string {
  const worse = buffer.filter(madeHeldOutWorse);
  const noEffect = buffer.filter((r) => !madeHeldOutWorse(r));
  const parts: string[] = [];
  if (worse.length > 0)
    parts.push(
      '## Made validation scores worse: never propose these again, nor the same rule in other words',
      ...worse.map(line),
    );
  if (noEffect.length > 0)
    parts.push(
      '## No measurable effect when tried: propose one again only if the failures above still need it, and say why it would help now',
      ...noEffect.map(line),
    );
  return parts.join('\n');
}
