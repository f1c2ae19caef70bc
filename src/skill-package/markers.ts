/**
 * The lines that join a skill package into the one document a night trains and the target reads:
 * SKILL.md first, then each inlined reference after its file marker, then what is only named
 * (scripts, large references) in a closing section. They are never a unit the trainer may edit.
 */
export const FILE_MARKER_PREFIX = '<!-- skillopt-sleep:file ';
export const fileMarker = (relPath: string): string => `\n${FILE_MARKER_PREFIX}${relPath} -->\n`;
export const LISTING_START = '\n<!-- skillopt-sleep:listing -->\n';
export const LISTING_END = '<!-- /skillopt-sleep:listing -->\n';
/** Any of our marker texts: a package file holding one could not be split back, so it is refused. */
export const ANY_MARKER = /<!--\s*\/?skillopt-sleep:(?:file|listing)\b/;

/** Where SKILL.md's own text ends in a joined package. */
export function skillMdEnd(doc: string): number {
  const file = doc.indexOf(`\n${FILE_MARKER_PREFIX}`);
  const listing = doc.indexOf(LISTING_START);
  const ends = [file, listing].filter((i) => i !== -1);
  return ends.length === 0 ? doc.length : Math.min(...ends);
}
