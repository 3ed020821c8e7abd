// A vitest reporter for `npm test` (scripts/test.ts): at the end of the run, each test file's time as vitest's own
// reporter prints it (its hooks and tests, from the first to the last: what the file cost the run), its state, and
// when it began and ended in the run (milliseconds from the run's start: which files ran side by side), one JSON
// object per line, to the file named by $JCP_FILE_TIMES. It prints nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** One file's line. */
export interface FileTime {
  readonly file: string;
  readonly ms: number;
  readonly state: string;
  /** When vitest began and ended the file, in milliseconds from the start of the run. */
  readonly fromMs?: number;
  readonly toMs?: number;
}

/** The lines a run wrote to `path` (throws where the file cannot be read or a line is not JSON). */
export function readFileTimes(path: string): FileTime[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FileTime);
}

export default class FileTimesReporter implements Reporter {
  private readonly started = Date.now();
  private readonly spans = new Map<string, { fromMs: number; toMs?: number }>();

  onTestModuleStart(m: TestModule): void {
    this.spans.set(m.moduleId, { fromMs: Date.now() - this.started });
  }

  onTestModuleEnd(m: TestModule): void {
    const span = this.spans.get(m.moduleId);
    if (span) span.toMs = Date.now() - this.started;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const out = process.env['JCP_FILE_TIMES'];
    if (!out) return;
    const lines = modules.map((m): FileTime => ({ file: relative(process.cwd(), m.moduleId), ms: Math.round(m.diagnostic().duration), state: m.state(), ...this.spans.get(m.moduleId) }));
    writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  }
}
