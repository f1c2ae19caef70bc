/**
 * Streaming JSONL reader with byte offsets, for transcripts that can be hundreds of MB and still
 * being appended to. Works on Buffers and splits on 0x0A, which never occurs inside a multi-byte
 * UTF-8 sequence, so characters split across chunk boundaries decode correctly.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from './regular-file.js';
import { resolveLazy, skimJson } from './json-skim.js';

export interface JsonlLine {
  /** The parsed JSON value, or undefined when the line is bad. */
  value: unknown;
  /** Byte offset of the first byte of the line. */
  offset: number;
  /**
   * Byte offset just past the line's terminating "\n" (a safe resume point). For a last line without
   * "\n" (yielded only with `includeOpenLastLine`) it is the line's own start, so a resumed read
   * re-reads that line whole once the writer finishes it.
   */
  endOffset: number;
  /** The line is not valid JSON (or is longer than `maxLineBytes`). */
  bad: boolean;
}

export interface JsonlReadOptions {
  /** Bytes per read; tests use tiny chunks to exercise boundaries. */
  chunkSize?: number;
  /** Longer lines are reported as bad without being buffered whole. */
  maxLineBytes?: number;
  /**
   * Also yield a last line that has no "\n" (a writer that exited without one, or one still writing
   * it): callers set this once the file has been quiet for a while (see SETTLE_MS in harvest.ts).
   */
  includeOpenLastLine?: boolean;
  /**
   * The caller's unread fields: long lines are parsed with their long strings left undecoded
   * (`json-skim.ts`), this drops the fields the caller never reads from each such record, and the
   * strings left are decoded. Without it every line is parsed whole.
   */
  unread?: (value: unknown) => void;
}

/** Lines shorter than this are parsed whole: skimming them saves less than it costs. */
const SKIM_MIN_LINE_BYTES = 2048;
/** Strings at least this long (in bytes, quotes included) are left undecoded until read. */
const SKIM_MIN_STRING_BYTES = 1024;

const DEFAULT_CHUNK_SIZE = 1 << 20;
const DEFAULT_MAX_LINE_BYTES = 64 << 20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const EMPTY = Buffer.alloc(0);

/**
 * Yields every complete line from `fromOffset` up to the file size seen at open. A trailing line
 * without "\n" is not complete (a writer may still be appending it), so it is yielded only with
 * `includeOpenLastLine`. Blank lines are skipped. Invalid JSON yields `bad: true`; content never
 * throws. Opening or reading the file can reject (ENOENT, EACCES, not a regular file...): only regular
 * files are read, opened non-blocking, so a FIFO planted at a transcript path cannot hang the reader.
 */
export function* readJsonlLines(
  filePath: string,
  fromOffset = 0,
  options: JsonlReadOptions = {},
): Generator<JsonlLine, void, undefined> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // Synchronous reads and a synchronous generator: a harvest is a batch over local files; awaiting the
  // thread pool per chunk left the CPU idle a fifth of the time, and a promise per line (with the
  // redaction scope's async hooks) cost more than many a line's parse.
  const { fd, stats } = openRegularFile(filePath);
  let chunk: Buffer = EMPTY;
  try {
    // Snapshot the size: bytes appended while we read belong to the next run.
    const { size } = stats;
    let position = Math.max(0, fromOffset);
    let lineStart = position;
    const pending = new PendingLine(maxLineBytes);
    chunk = takeChunk(chunkSize);

    while (position < size) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
      if (bytesRead === 0) break; // The file shrank under us; stop at what we have.
      const data = chunk.subarray(0, bytesRead);

      let from = 0;
      for (let nl = data.indexOf(NEWLINE, from); nl !== -1; nl = data.indexOf(NEWLINE, from)) {
        pending.append(data.subarray(from, nl));
        const endOffset = position + nl + 1;
        const line = pending.take();
        const parsed = line === undefined ? BAD : parseLine(line, lineStart === 0, options.unread);
        if (parsed !== BLANK) yield { value: parsed.value, bad: parsed.bad, offset: lineStart, endOffset };
        lineStart = endOffset;
        from = nl + 1;
      }
      pending.append(data.subarray(from));
      // The next read overwrites the buffer: a line still open keeps a copy of its bytes.
      pending.detach();
      position += bytesRead;
    }
    if (options.includeOpenLastLine === true && lineStart < position) {
      const line = pending.take();
      const parsed = line === undefined ? BAD : parseLine(line, lineStart === 0, options.unread);
      if (parsed !== BLANK)
        yield { value: parsed.value, bad: parsed.bad, offset: lineStart, endOffset: lineStart };
    }
  } finally {
    closeSync(fd);
    if (chunk.length === DEFAULT_CHUNK_SIZE) spareChunk = chunk;
  }
}

/**
 * One read buffer reused from file to file (a harvest reads thousands): a fresh one per read left
 * megabytes of dead buffers for the collector. A second reader open at the same time gets its own.
 */
let spareChunk: Buffer | undefined;

function takeChunk(size: number): Buffer {
  if (size === DEFAULT_CHUNK_SIZE && spareChunk !== undefined) {
    const chunk = spareChunk;
    spareChunk = undefined;
    return chunk;
  }
  return Buffer.allocUnsafe(size);
}

/** The bytes of the line being assembled; drops them once the line is over the cap. */
class PendingLine {
  private parts: Buffer[] = [];
  private bytes = 0;
  private oversized = false;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  append(part: Buffer): void {
    if (part.length === 0 || this.oversized) return;
    this.bytes += part.length;
    if (this.bytes > this.maxBytes) {
      this.oversized = true;
      this.parts = [];
      return;
    }
    this.parts.push(part);
  }

  /** Copies the parts kept so far out of the read buffer, which the next read overwrites. */
  detach(): void {
    if (this.parts.length === 0) return;
    this.parts = [
      Buffer.from(
        this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.bytes),
      ),
    ];
  }

  /** The complete line, or undefined when it was too long; resets for the next line. */
  take(): Buffer | undefined {
    const line = this.oversized
      ? undefined
      : this.parts.length === 1 && this.parts[0] !== undefined
        ? this.parts[0]
        : Buffer.concat(this.parts, this.bytes);
    this.parts = [];
    this.bytes = 0;
    this.oversized = false;
    return line;
  }
}

type ParsedLine = Pick<JsonlLine, 'value' | 'bad'>;
const BAD: ParsedLine = { value: undefined, bad: true };
const BLANK: ParsedLine = { value: undefined, bad: false };

function parseLine(
  line: Buffer,
  atFileStart: boolean,
  unread: ((value: unknown) => void) | undefined,
): ParsedLine {
  let bytes = line;
  if (atFileStart && bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) bytes = bytes.subarray(3);
  if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
  const skimmed =
    unread !== undefined && bytes.length >= SKIM_MIN_LINE_BYTES
      ? skimJson(bytes, 0, bytes.length, SKIM_MIN_STRING_BYTES)
      : null;
  const text = skimmed?.text ?? bytes.toString('utf8');
  if (text.trim() === '') return BLANK;
  try {
    const value = JSON.parse(text) as unknown;
    if (skimmed === null || skimmed.ranges.length === 0 || unread === undefined) return { value, bad: false };
    unread(value);
    return { value: resolveLazy(value, bytes, skimmed.ranges), bad: false };
  } catch {
    return BAD;
  }
}
