/**
 * Bulk text that real transcripts are mostly made of: file contents, diffs, test and build output.
 * Lines come from pools built once per run, so producing hundreds of MB stays cheap.
 */
import type { Rng } from './rng.js';
import { DIRS, NOUNS, PY_DIRS, VERBS, plural, third } from './words.js';

export type Lang = 'ts' | 'py';

const TS_TYPES = ['string', 'number', 'boolean', 'Date', 'string[]', 'Record<string, unknown>', 'unknown'];
const FIELDS = [
  'id',
  'name',
  'createdAt',
  'updatedAt',
  'status',
  'total',
  'items',
  'ownerId',
  'meta',
  'count',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export class Filler {
  private readonly rng: Rng;
  private readonly blocks: Record<Lang, string[][]>;
  private readonly imports: Record<Lang, string[]>;
  /** Upper bound for `outputSize()` (small appended sessions use it). */
  sizeCap = Number.POSITIVE_INFINITY;
  /** Multiplies every tool output size (gen-corpus --output-scale: many sessions in few bytes, or the reverse). */
  sizeScale = 1;

  constructor(rng: Rng) {
    this.rng = rng;
    this.blocks = { ts: [], py: [] };
    this.imports = { ts: [], py: [] };
    for (let i = 0; i < 700; i++) {
      this.blocks.ts.push(this.tsBlock());
      this.blocks.py.push(this.pyBlock());
    }
    for (let i = 0; i < 120; i++) {
      const n = rng.pick(NOUNS);
      this.imports.ts.push(
        rng.chance(0.3)
          ? `import type { ${cap(n)} } from '../${rng.pick(DIRS).replace('src/', '')}/${n}.js';`
          : `import { ${this.fnName()} } from './${n}.js';`,
      );
      this.imports.py.push(`from app.${rng.pick(PY_DIRS).replace('app/', '')}.${n} import ${this.pyName()}`);
    }
  }

  fnName(): string {
    return this.rng.pick(VERBS) + cap(this.rng.pick(NOUNS));
  }

  pyName(): string {
    return `${this.rng.pick(VERBS)}_${this.rng.pick(NOUNS)}`;
  }

  /** Typical size of one tool output, heavy-tailed like real logs. */
  outputSize(): number {
    return Math.min(this.sizeCap, Math.max(1, Math.round(this.rawOutputSize() * this.sizeScale)));
  }

  private rawOutputSize(): number {
    const r = this.rng.next();
    if (r < 0.6) return this.rng.int(150, 2000);
    if (r < 0.9) return this.rng.int(2000, 10000);
    if (r < 0.99) return this.rng.int(10000, 40000);
    return this.rng.int(40000, 200000);
  }

  /** A source file of roughly `bytes` bytes. */
  fileContent(lang: Lang, bytes: number): string {
    const out: string[] = [];
    let size = 0;
    const nImports = this.rng.int(2, 8);
    for (let i = 0; i < nImports; i++) out.push(this.rng.pick(this.imports[lang]));
    out.push('');
    while (size < bytes) {
      for (const l of this.rng.pick(this.blocks[lang])) {
        out.push(l);
        size += l.length + 1;
      }
    }
    return out.join('\n');
  }

  /** Claude Code's Read format: right-aligned line number, an arrow, the line. */
  numbered(content: string, startLine = 1): string {
    return content
      .split('\n')
      .map((l, i) => `${String(i + startLine).padStart(6)}\u2192${l}`)
      .join('\n');
  }

  /** A unified diff over `files`. */
  diff(lang: Lang, files: readonly string[], bytes: number): string {
    const out: string[] = [];
    let size = 0;
    let fi = 0;
    while (size < bytes) {
      const f = files[fi++ % files.length] ?? 'src/index.ts';
      out.push(`diff --git a/${f} b/${f}`, `index ${this.rng.hex(7)}..${this.rng.hex(7)} 100644`);
      out.push(`--- a/${f}`, `+++ b/${f}`);
      const hunks = this.rng.int(1, 4);
      for (let h = 0; h < hunks; h++) {
        const at = this.rng.int(1, 300);
        out.push(`@@ -${at},7 +${at},${this.rng.int(6, 14)} @@`);
        const block = this.rng.pick(this.blocks[lang]);
        for (const l of block) {
          const r = this.rng.next();
          const line = (r < 0.2 ? '-' : r < 0.45 ? '+' : ' ') + l;
          out.push(line);
          size += line.length + 1;
        }
      }
    }
    return out.join('\n');
  }

  install(pm: string, pkg: string): string {
    const n = this.rng.int(1, 40);
    const v = `${this.rng.int(0, 9)}.${this.rng.int(0, 30)}.${this.rng.int(0, 20)}`;
    if (pm === 'pnpm') {
      return `Packages: +${n}\n${'+'.repeat(n)}\nProgress: resolved ${n + 400}, reused ${400}, downloaded ${n}, added ${n}, done\n\ndependencies:\n+ ${pkg} ${v}\n\nDone in ${this.rng.int(1, 9)}.${this.rng.int(0, 9)}s`;
    }
    if (pm === 'pip') {
      return `Collecting ${pkg}\n  Downloading ${pkg}-${v}-py3-none-any.whl (${this.rng.int(20, 900)} kB)\nInstalling collected packages: ${pkg}\nSuccessfully installed ${pkg}-${v}`;
    }
    return `\nadded ${n} packages, and audited ${n + 400} packages in ${this.rng.int(1, 9)}s\n\n${this.rng.int(40, 120)} packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`;
  }

  /** vitest / pytest output for `files`; `failing` test files get a failure block. */
  testRun(lang: Lang, files: readonly string[], failing: number, bytes: number): string {
    const out: string[] = [];
    let size = 0;
    let total = 0;
    while (size < bytes || out.length < files.length) {
      const f = files[out.length % Math.max(1, files.length)] ?? 'src/index.test.ts';
      const n = this.rng.int(2, 40);
      total += n;
      const line =
        lang === 'py'
          ? `${f} ${'.'.repeat(n)}${' '.repeat(Math.max(1, 60 - n))}[${this.rng.int(1, 99)}%]`
          : ` \u2713 ${f} (${n} tests) ${this.rng.int(2, 900)}ms`;
      out.push(line);
      size += line.length + 1;
      if (out.length > 4000) break;
    }
    for (let i = 0; i < failing; i++) {
      const f = files[i % Math.max(1, files.length)] ?? 'src/index.test.ts';
      const block = this.rng.pick(this.blocks[lang]);
      out.push(
        '',
        lang === 'py'
          ? `FAILED ${f}::test_${this.pyName()}`
          : ` FAIL  ${f} > ${this.fnName()} > handles empty input`,
        `AssertionError: expected ${this.rng.int(0, 9)} to equal ${this.rng.int(10, 99)}`,
        ` \u276f ${f}:${this.rng.int(5, 200)}:${this.rng.int(3, 30)}`,
        ...block.map((l, j) => `    ${j + 10}| ${l}`),
      );
    }
    out.push(
      '',
      lang === 'py'
        ? `==== ${failing > 0 ? `${failing} failed, ` : ''}${total} passed in ${this.rng.int(1, 60)}.${this.rng.int(10, 99)}s ====`
        : ` Test Files  ${failing > 0 ? `${failing} failed | ` : ''}${files.length} passed (${files.length + failing})\n      Tests  ${total} passed (${total})\n   Duration  ${this.rng.int(1, 30)}.${this.rng.int(10, 99)}s`,
    );
    return out.join('\n');
  }

  tscErrors(files: readonly string[], count: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const f = this.rng.pick(files);
      out.push(
        `${f}(${this.rng.int(1, 400)},${this.rng.int(1, 40)}): error TS2${this.rng.int(300, 799)}: Type '${this.rng.pick(TS_TYPES)}' is not assignable to type '${this.rng.pick(TS_TYPES)}'.`,
      );
    }
    out.push('', `Found ${count} errors in ${Math.min(count, files.length)} files.`);
    return out.join('\n');
  }

  lint(files: readonly string[], root: string, count: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      out.push(
        `${root}/${this.rng.pick(files)}`,
        `  ${this.rng.int(1, 300)}:${this.rng.int(1, 40)}  error  '${this.fnName()}' is defined but never used  @typescript-eslint/no-unused-vars`,
        '',
      );
    }
    out.push(`\u2716 ${count} problems (${count} errors, 0 warnings)`);
    return out.join('\n');
  }

  gitLog(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      out.push(
        `${this.rng.hex(7)} ${cap(this.rng.pick(VERBS))} ${this.rng.pick(NOUNS)} ${plural(this.rng.pick(NOUNS))}`,
      );
    }
    return out.join('\n');
  }

  gitStatus(branch: string, files: readonly string[]): string {
    const changed = files.slice(0, this.rng.int(1, Math.min(6, files.length)));
    return `On branch ${branch}\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n${changed.map((f) => `\tmodified:   ${f}`).join('\n')}\n\nno changes added to commit (use "git add" and/or "git commit -a")`;
  }

  /** `find`/glob style listing, padded with vendored paths like real listings. */
  listing(root: string, files: readonly string[], bytes: number): string {
    const out = files.map((f) => `${root}/${f}`);
    let size = out.join('\n').length;
    while (size < bytes) {
      const p = `${root}/node_modules/${this.rng.pick(NOUNS)}-${this.rng.pick(NOUNS)}/dist/${this.rng.pick(VERBS)}.${this.rng.pick(['js', 'd.ts', 'cjs', 'map'])}`;
      out.push(p);
      size += p.length + 1;
    }
    return out.join('\n');
  }

  lsLong(files: readonly string[]): string {
    return files
      .map(
        (f) =>
          `-rw-r--r--  1 dev  staff  ${String(this.rng.int(80, 40000)).padStart(6)} ${this.rng.pick(MONTHS)} ${String(this.rng.int(1, 28)).padStart(2)} ${String(this.rng.int(0, 23)).padStart(2, '0')}:${String(this.rng.int(0, 59)).padStart(2, '0')} ${f}`,
      )
      .join('\n');
  }

  grep(lang: Lang, files: readonly string[], bytes: number): string {
    const out: string[] = [];
    let size = 0;
    while (size < bytes) {
      const block = this.rng.pick(this.blocks[lang]);
      const line = `${this.rng.pick(files)}:${this.rng.int(1, 500)}:${block[this.rng.int(0, block.length - 1)] ?? ''}`;
      out.push(line);
      size += line.length + 1;
    }
    return out.join('\n');
  }

  buildLog(bytes: number): string {
    const out = ['vite v5.4.10 building for production...', 'transforming...'];
    let size = 0;
    while (size < bytes) {
      const line = `dist/assets/${this.rng.pick(NOUNS)}-${this.rng.base64url(8)}.js  ${String(this.rng.int(1, 900)).padStart(4)}.${this.rng.int(10, 99)} kB \u2502 gzip: ${this.rng.int(1, 300)}.${this.rng.int(10, 99)} kB`;
      out.push(line);
      size += line.length + 1;
    }
    out.push(`\u2713 built in ${this.rng.int(1, 40)}.${this.rng.int(10, 99)}s`);
    return out.join('\n');
  }

  /** A short markdown code excerpt for assistant prose. */
  snippet(lang: Lang): string {
    return (
      '```' + (lang === 'py' ? 'python' : 'ts') + '\n' + this.rng.pick(this.blocks[lang]).join('\n') + '\n```'
    );
  }

  private tsBlock(): string[] {
    const r = this.rng;
    const fn = this.fnName();
    const noun = r.pick(NOUNS);
    if (r.chance(0.2)) {
      const lines = [`export interface ${cap(noun)} {`];
      for (let i = r.int(2, 8); i > 0; i--) lines.push(`  ${r.pick(FIELDS)}: ${r.pick(TS_TYPES)};`);
      return [...lines, '}', ''];
    }
    if (r.chance(0.2)) {
      const lines = [`describe('${fn}', () => {`];
      for (let i = r.int(1, 4); i > 0; i--) {
        lines.push(
          `  it('${third(r.pick(VERBS))} the ${r.pick(NOUNS)}', async () => {`,
          `    const ${noun} = await ${fn}(${r.int(0, 99)});`,
          `    expect(${noun}.${r.pick(FIELDS)}).toEqual(${r.chance(0.5) ? `'${r.pick(NOUNS)}'` : r.int(0, 9)});`,
          '  });',
        );
      }
      return [...lines, '});', ''];
    }
    const lines = [
      `export async function ${fn}(${noun}: ${cap(noun)}, options: ${cap(r.pick(NOUNS))}Options = {}): Promise<${cap(r.pick(NOUNS))}> {`,
    ];
    for (let i = r.int(3, 14); i > 0; i--) {
      const other = r.pick(NOUNS);
      lines.push(
        r.pick([
          `  const ${other} = await ${this.fnName()}(${noun}.${r.pick(FIELDS)});`,
          `  if (!${other}) throw new Error('${other} not found');`,
          `  logger.debug({ ${noun}Id: ${noun}.id }, '${r.pick(VERBS)} ${other}');`,
          `  // TODO: ${r.pick(VERBS)} the ${other} before we ${r.pick(VERBS)} it`,
          `  for (const ${other} of ${noun}.${r.pick(FIELDS)}) total += ${other}.${r.pick(FIELDS)} ?? 0;`,
          `  const ${other}s = ${noun}.items.filter((x) => x.${r.pick(FIELDS)} !== undefined);`,
          `  await db.${r.pick(NOUNS)}.${r.pick(['insert', 'update', 'delete'])}({ id: ${noun}.id, ${r.pick(FIELDS)}: options.${r.pick(FIELDS)} });`,
        ]),
      );
    }
    lines.push(`  return { ...${noun}, ${r.pick(FIELDS)}: Date.now() };`, '}', '');
    return lines;
  }

  private pyBlock(): string[] {
    const r = this.rng;
    const fn = this.pyName();
    const noun = r.pick(NOUNS);
    if (r.chance(0.25)) {
      const lines = [`class ${cap(noun)}(BaseModel):`];
      for (let i = r.int(2, 8); i > 0; i--)
        lines.push(
          `    ${r.pick(FIELDS)}: ${r.pick(['str', 'int', 'float', 'datetime', 'list[str]', 'dict[str, Any]'])}`,
        );
      return [...lines, ''];
    }
    const lines = [
      `def ${fn}(${noun}: ${cap(noun)}, *, session: Session | None = None) -> ${cap(r.pick(NOUNS))}:`,
    ];
    lines.push(`    """${cap(r.pick(VERBS))} the ${noun} and return the ${r.pick(NOUNS)}."""`);
    for (let i = r.int(3, 12); i > 0; i--) {
      const other = r.pick(NOUNS);
      lines.push(
        r.pick([
          `    ${other} = ${this.pyName()}(${noun}.${r.pick(FIELDS)})`,
          `    if ${other} is None:`,
          `        raise ValueError(f"${other} {${noun}.id} not found")`,
          `    logger.debug("${r.pick(VERBS)} ${other}", extra={"id": ${noun}.id})`,
          `    for ${other} in ${noun}.items:`,
          `        total += ${other}.${r.pick(FIELDS)} or 0`,
          `    session.add(${cap(other)}(id=${noun}.id))`,
        ]),
      );
    }
    lines.push(`    return ${noun}`, '');
    return lines;
  }
}
