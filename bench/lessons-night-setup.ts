/**
 * Writes the lessons night's sessions (`test/e2e/lessons-night-corpus.ts`) into a fake HOME, for
 * recording the strong-model night its test replays:
 *
 *   node bench/out/js/bench/lessons-night-setup.js --home DIR --project DIR
 */
import { mkdirSync } from 'node:fs';
import { writeLessonsNightCorpus } from '../test/e2e/lessons-night-corpus.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const home = arg('home');
const project = arg('project');
if (!home || !project) {
  console.error('usage: lessons-night-setup --home DIR --project DIR');
  process.exit(2);
}
mkdirSync(project, { recursive: true });
writeLessonsNightCorpus(home, project);
