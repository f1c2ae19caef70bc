/**
 * The `apply_patch` envelope (`*** Begin Patch` … `*** End Patch`) as actions, one per file section:
 * `*** Add File:` → write, `*** Update File:` → edit, `*** Delete File:` → delete. Codex writes it, and
 * so do VS Code Copilot Chat and Copilot CLI when a model uses their `apply_patch` tool. Also the `+`/`-`
 * lines of a unified diff (Codex `patch_apply_end` events).
 */
import { MAX_TEXT_CHARS, toolAction } from './actions.js';
import type { ActionKind, ToolAction } from '../../src/core/session.js';

const SECTION = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
const BEGIN_PATCH = '*** Begin Patch';
const CR = 0x0d;
const PLUS = 0x2b;
const MINUS = 0x2d;
const STAR = 0x2a;

interface Section {
  kind: ActionKind;
  path: string;
  added: LineCollector;
  removed: LineCollector;
}

/** Collects lines up to the text cap (what is past it would be cut anyway). */
class LineCollector {
  private readonly lines: string[] = [];
  private chars = 0;
  /** The line `text[start, end)`. */
  add(text: string, start: number, end: number): void {
    if (this.chars > MAX_TEXT_CHARS) return;
    this.lines.push(text.slice(start, end));
    this.chars += end - start + 1;
  }
  text(): string {
    return this.lines.join('\n');
  }
}

/** True when the text holds an apply_patch envelope. */
export function isPatchText(text: string): boolean {
  return text.includes(BEGIN_PATCH);
}

/** One action per file section of the patch, in patch order; no section (not a patch) → []. */
export function patchActions(tool: string, patch: string): ToolAction[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  // Line by line without splitting: most lines are context that is never copied.
  for (let start = 0; start <= patch.length;) {
    const newline = patch.indexOf('\n', start);
    const next = newline === -1 ? patch.length + 1 : newline + 1;
    let end = next - 1;
    if (end > start && patch.charCodeAt(end - 1) === CR) end--;
    const first = patch.charCodeAt(start);
    if (first === PLUS || first === MINUS) {
      if (current !== undefined && current.kind !== 'delete') {
        if (first === PLUS) current.added.add(patch, start + 1, end);
        else if (current.kind === 'edit') current.removed.add(patch, start + 1, end);
      }
    } else if (first === STAR && patch.startsWith('*** ', start)) {
      const line = patch.slice(start, end);
      const header = SECTION.exec(line);
      if (header != null) {
        const kind = header[1] === 'Add' ? 'write' : header[1] === 'Update' ? 'edit' : 'delete';
        current = {
          kind,
          path: (header[2] ?? '').trim(),
          added: new LineCollector(),
          removed: new LineCollector(),
        };
        sections.push(current);
      } else if (line.startsWith('*** End Patch')) {
        current = undefined;
      }
      // `*** Move to:`, `*** End of File`, `*** Begin Patch`: no text of their own.
    }
    start = next;
  }
  return sections.map((s) => toolAction(s.kind, tool, s.path, s.added.text(), s.removed.text()));
}

/** The `+` and `-` lines of a unified diff, without their markers (`---`/`+++` file headers skipped). */
export function diffText(diff: string): { added: string; removed: string } {
  const added = new LineCollector();
  const removed = new LineCollector();
  let inHunk = false;
  for (const raw of diff.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk && (line.startsWith('+++') || line.startsWith('---'))) continue;
    else if (line.startsWith('+')) added.add(line, 1, line.length);
    else if (line.startsWith('-')) removed.add(line, 1, line.length);
  }
  return { added: added.text(), removed: removed.text() };
}
