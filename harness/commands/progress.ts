// certify's own progress while the test runner works (the runner's raw output goes to <report>/runner.log, and to
// the terminal only under --verbose): one line — tests done / total, the class running, failures so far, elapsed —
// updated in place on a terminal, printed every PLAIN_EVERY_MS otherwise (a CI log). It reads the record the test
// runner's reporter appends to (harness/report/record-reporter.ts): a `collected` line per test file as it is
// collected, a `test` line per finished test.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { countsAgainst, type Grading } from '../report/expectations.ts';
import type { TestLine } from '../report/record-reporter.ts';

/** How often the line is printed where it cannot be redrawn in place. */
export const PLAIN_EVERY_MS = 15_000;
const TTY_EVERY_MS = 250;

/** What the line says. */
export interface ProgressState {
  readonly done: number;
  /** Tests collected so far (files are collected as the run goes, so this grows at first). */
  readonly total: number;
  /** Whether every test file has been collected, so that `total` is the run's. */
  readonly collected: boolean;
  /** Tests so far that count against the testee unless an expectation says otherwise. */
  readonly failing: number;
  /** The class of the latest finished test (its first of the classes asked for, when certify was given --classes). */
  readonly running: string | undefined;
  readonly elapsedMs: number;
}

/** The progress line, e.g. `  412/826 tests · running jcp:C7 · 0 failing · 1m 05s` (`826+` while test files are still being collected). */
export function progressLine(s: ProgressState): string {
  const sec = Math.floor(s.elapsedMs / 1000);
  const elapsed = sec >= 60 ? `${Math.floor(sec / 60)}m ${String(sec % 60).padStart(2, '0')}s` : `${sec}s`;
  const total = Math.max(s.total, s.done);
  return `  ${s.done}/${s.collected ? total : `${total}+`} tests · ${s.running ? `running ${s.running}` : 'starting'} · ${s.failing} failing · ${elapsed}`;
}

/** Follows the record at `path` and keeps the line on `out` up to date until {@link Progress.stop}. */
export class Progress {
  private offset = 0;
  private rest = '';
  private done = 0;
  private total = 0;
  private files: number | undefined;
  private filesCollected = 0;
  private failing = 0;
  private running: string | undefined;
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private lastPlain = Date.now();
  private shown = false;

  constructor(
    private readonly path: string,
    private readonly out: NodeJS.WriteStream,
    private readonly grading: Grading,
    private readonly classes?: readonly string[],
  ) {}

  start(): void {
    const tty = this.out.isTTY === true;
    this.timer = setInterval(() => this.tick(tty), tty ? TTY_EVERY_MS : 1000);
  }

  /** Reads what the record gained, and ends the line. */
  stop(): ProgressState {
    if (this.timer) clearInterval(this.timer);
    this.read();
    if (this.shown && this.out.isTTY) this.out.write(`\r\x1b[2K${progressLine(this.state())}\n`);
    return this.state();
  }

  state(): ProgressState {
    const collected = this.files !== undefined && this.filesCollected >= this.files;
    return { done: this.done, total: this.total, collected, failing: this.failing, running: this.running, elapsedMs: Date.now() - this.started };
  }

  private tick(tty: boolean): void {
    this.read();
    if (tty) {
      this.out.write(`\r\x1b[2K${progressLine(this.state())}`);
      this.shown = true;
    } else if (Date.now() - this.lastPlain >= PLAIN_EVERY_MS) {
      this.lastPlain = Date.now();
      this.out.write(`${progressLine(this.state())}\n`);
    }
  }

  private read(): void {
    if (!existsSync(this.path)) return;
    const size = statSync(this.path).size;
    if (size < this.offset) {
      // the reporter starts the record afresh when the runner starts
      this.offset = 0;
      this.rest = '';
    }
    if (size === this.offset) return;
    const fd = openSync(this.path, 'r');
    try {
      const buf = Buffer.alloc(size - this.offset);
      readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      const lines = (this.rest + buf.toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      for (const l of lines) if (l) this.take(JSON.parse(l) as { type: string });
    } finally {
      closeSync(fd);
    }
  }

  private take(l: { type: string }): void {
    if (l.type === 'files') this.files = (l as unknown as { files: number }).files;
    if (l.type === 'collected') {
      this.total += (l as unknown as { tests: number }).tests;
      this.filesCollected++;
    }
    if (l.type !== 'test') return;
    const t = l as TestLine;
    this.done++;
    this.running = t.classes.find((k) => this.classes?.includes(k)) ?? t.classes[0] ?? this.running;
    if (countsAgainst(t, this.grading)) this.failing++;
  }
}
