/**
 * `report.md` read on a terminal: the Markdown the renderer added (backslash escapes, `**bold**`,
 * `_italics_`, code-span backticks) is taken out so rules and ids read as they were written
 * (`inst_1`, `[\s\S]`, not `inst\_1`, `\[\\s\\S\]`). The file itself stays Markdown.
 */

/** Escapes are the renderer's (`escapeMd` in src/night/render-report.ts); a code span is literal. */
const MARKUP = /`([^`]*)`|\\([\\`*_[\]<>|])|\*\*|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;

export function markdownForTerminal(md: string): string {
  return md.replace(
    MARKUP,
    (_m, code: string | undefined, escaped: string | undefined) => code ?? escaped ?? '',
  );
}
