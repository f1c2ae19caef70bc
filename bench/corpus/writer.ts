/** Buffered synchronous file output with byte accounting (the corpus is written in one pass, no streams). */
import fs from 'node:fs';
import path from 'node:path';

const FLUSH_AT = 1 << 20;

export class BufferedFile {
  readonly path: string;
  private readonly fd: number;
  private chunks: string[] = [];
  private pending = 0;
  private written = 0;

  constructor(filePath: string, flags: 'w' | 'a' = 'w') {
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
    this.path = filePath;
    this.fd = fs.openSync(filePath, flags);
  }

  /** Bytes accepted so far (flushed or not). */
  get bytes(): number {
    return this.written + this.pending;
  }

  write(text: string): void {
    this.chunks.push(text);
    this.pending += Buffer.byteLength(text);
    if (this.pending >= FLUSH_AT) this.flush();
  }

  /** One JSON record plus newline. */
  line(record: unknown): void {
    this.write(JSON.stringify(record) + '\n');
  }

  flush(): void {
    if (this.chunks.length === 0) return;
    fs.writeSync(this.fd, this.chunks.join(''));
    this.written += this.pending;
    this.chunks = [];
    this.pending = 0;
  }

  /** Flush, close, and set the modification time (epoch ms) as the agent would have left it. */
  close(mtimeMs?: number): number {
    this.flush();
    fs.closeSync(this.fd);
    if (mtimeMs !== undefined) {
      const t = new Date(mtimeMs);
      fs.utimesSync(this.path, t, t);
    }
    return this.written;
  }
}

/** Write a small file in one go; returns its byte length. */
export function writeSmallFile(filePath: string, text: string, mtimeMs?: number): number {
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  fs.writeFileSync(filePath, text);
  if (mtimeMs !== undefined) {
    const t = new Date(mtimeMs);
    fs.utimesSync(filePath, t, t);
  }
  return Buffer.byteLength(text);
}
