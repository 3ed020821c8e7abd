// The kill matrix's vitest reporter: with many mutants in one vitest run (a wrapper test file
// <plan dir>/<mutant id>/<test file> per mutant and file, mutation/vitest.matrix.config.ts), it writes each mutant's
// tests to its own record $JCP_MATRIX_RECORDS/<mutant id>.jsonl, line for line as harness/report/record-reporter.ts writes the primary record
// (it delegates to one RecordReporter per mutant), so mutation/matrix.ts reads each mutant's run as before.
import { dirname, join, relative, sep } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import RecordReporter from '../harness/report/record-reporter.ts';

/** The prefix of a progress line (mutation/matrix.ts prints these as they come). */
export const PROGRESS = 'jcp-matrix-progress ';

export default class MatrixReporter implements Reporter {
  private readonly dir = process.env['JCP_MATRIX_RECORDS'];
  /** The plan folder, where the wrapper files are (mutation/vitest.matrix.config.ts). */
  private readonly planDir = process.env['JCP_MATRIX_PLAN'] ? dirname(process.env['JCP_MATRIX_PLAN']) : undefined;
  private readonly byProject = new Map<string, RecordReporter>();

  private recorder(project: string): RecordReporter | undefined {
    if (!this.dir) return undefined;
    let r = this.byProject.get(project);
    if (!r) {
      // RecordReporter reads its path from JCP_RECORD when built: one per project, each on its own file
      const saved = process.env['JCP_RECORD'];
      process.env['JCP_RECORD'] = join(this.dir, `${project}.jsonl`);
      r = new RecordReporter();
      r.onInit();
      if (saved === undefined) delete process.env['JCP_RECORD'];
      else process.env['JCP_RECORD'] = saved;
      this.byProject.set(project, r);
    }
    return r;
  }

  /** The mutant a wrapper file runs: the first folder of its path under the plan folder. */
  private mutantOf(m: TestModule): string {
    return this.planDir ? relative(this.planDir, m.moduleId).split(sep)[0]! : 'unknown';
  }

  /** Progress on a long run: a line per finished wrapper file, which mutation/matrix.ts passes through to its output. */
  onTestModuleEnd(m: TestModule): void {
    const failed = [...m.children.allTests()].filter((t) => t.result().state === 'failed').length;
    process.stdout.write(`${PROGRESS}${this.mutantOf(m)} ${relative(join(this.planDir ?? '', this.mutantOf(m)), m.moduleId)}: ${failed ? `${failed} failing` : 'none failing'}\n`);
  }

  onTestCaseResult(test: TestCase): void {
    this.recorder(this.mutantOf(test.module))?.onTestCaseResult(test);
  }

  /** Each mutant's record is closed with its own files' load errors; the run's unhandled errors go to every one. */
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    const mutants = new Set([...this.byProject.keys(), ...modules.map((m) => this.mutantOf(m))]);
    for (const id of mutants) this.recorder(id)?.onTestRunEnd(modules.filter((m) => this.mutantOf(m) === id), unhandled, reason);
  }
}
