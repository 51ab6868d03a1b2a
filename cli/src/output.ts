/**
 * How the CLI answers: JSON on stdout with `--json` (one document per command, for
 * scripts), aligned tables and short lines otherwise; errors on stderr; progress only
 * when stderr is a terminal.
 */
import type { Writable } from 'node:stream';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

export class Output {
  constructor(
    readonly json: boolean,
    readonly stdout: Writable = process.stdout,
    readonly stderr: Writable & { isTTY?: boolean; columns?: number } = process.stderr,
  ) {}

  /** Progress bars and spinners only on a terminal, and never with --json. */
  get interactive(): boolean {
    return !this.json && this.stderr.isTTY === true;
  }

  /** A line for humans on stdout; silent with --json. */
  line(text = ''): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** A note for humans on stderr (progress, what happens next); silent with --json. */
  note(text: string): void {
    if (!this.json) this.stderr.write(`${text}\n`);
  }

  /** The command's result: `data` as JSON with --json, else what `human` prints. */
  result(data: unknown, human: () => void): void {
    if (this.json) this.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    else human();
  }

  /** `rows` as JSON, or as an aligned table of `columns`. */
  table<T>(rows: readonly T[], columns: readonly Column<T>[], data: unknown = rows): void {
    this.result(data, () => this.stdout.write(formatTable(rows, columns)));
  }

  /** An object as JSON, or as aligned `key: value` lines. */
  record(data: Record<string, unknown>, fields: Record<string, unknown> = data): void {
    this.result(data, () => {
      const width = Math.max(0, ...Object.keys(fields).map((k) => k.length));
      for (const [k, v] of Object.entries(fields)) this.stdout.write(`${`${k}:`.padEnd(width + 2)}${cell(v)}\n`);
    });
  }
}

function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Rows under a header, each column as wide as its widest cell, two spaces apart. */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => cell(c.value(r)).replace(/\s+/g, ' ')));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]!.length)));
  const render = (row: readonly string[]) =>
    row
      .map((v, i) => (i === row.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [render(columns.map((c) => c.header.toUpperCase())), ...cells.map(render)].join('\n') + '\n';
}

/** A progress bar on one terminal line, redrawn at most every 100 ms; nothing off a terminal. */
export class ProgressBar {
  #done = 0;
  #last = 0;
  constructor(
    private readonly out: Output,
    private readonly label: string,
    private readonly total: number,
  ) {}

  advance(bytes: number): void {
    this.#done += bytes;
    const now = Date.now();
    if (now - this.#last >= 100 || this.#done >= this.total) {
      this.#last = now;
      this.#draw();
    }
  }

  finish(): void {
    if (!this.out.interactive) return;
    this.#draw();
    this.out.stderr.write('\n');
  }

  #draw(): void {
    if (!this.out.interactive) return;
    const ratio = this.total === 0 ? 1 : Math.min(1, this.#done / this.total);
    const width = Math.max(10, Math.min(40, (this.out.stderr.columns ?? 80) - this.label.length - 30));
    const filled = Math.round(ratio * width);
    this.out.stderr.write(`\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${formatBytes(this.#done)}`);
  }
}

/** A spinner with a changing message on a terminal; off a terminal, each new message once on its own line. */
export class Spinner {
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #text = '';
  constructor(private readonly out: Output) {}

  update(text: string): void {
    if (text === this.#text) return;
    this.#text = text;
    if (!this.out.interactive) {
      this.out.note(text);
      return;
    }
    this.#timer ??= setInterval(() => this.#draw(), 120).unref();
    this.#draw();
  }

  stop(): void {
    if (this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      this.out.stderr.write('\r\x1b[K');
    }
  }

  #draw(): void {
    const frames = '|/-\\';
    this.out.stderr.write(`\r\x1b[K${frames[this.#frame++ % frames.length]} ${this.#text}`);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** `512M`, `1G`, `256` (MiB), `1048576B` -> bytes. */
export function parseMemory(raw: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)$/i.exec(raw.trim());
  if (!m) throw new Error(`"${raw}" is not a size such as 256M or 1G`);
  const unit = m[2]!.toLowerCase();
  const n = Number(m[1]);
  if (unit === '' && m[3]!.toLowerCase() !== 'b') return Math.round(n * 1024 * 1024);
  const factor = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[unit]!;
  return Math.round(n * factor);
}
