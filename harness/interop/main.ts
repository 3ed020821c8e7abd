// `jcp-conformance interop`: objects made by one implementation (grants, chains, revocations, receipts) verified
// and decided by every other, a producer × consumer matrix per class, judged against the in-process reference
// (harness/interop/run.ts says how). Its options are interop's table in harness/commands/options.ts (`--testee`
// repeats; `--testee reference` or `--reference` names the in-process reference; participants keep the order given;
// one is enough: it then produces for and consumes from itself). One testee process per participant serves every
// case. Writes <report>/interop.json and <report>/interop.md (default reports/interop); exit 0 when every cell
// agrees, 1 when any differs, 2 on a usage error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Implementation } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { testeeTransport } from '../drivers/testee.ts';
import { markdownReport, terminalReport } from './report.ts';
import { runInterop, type ClassMatrix, type InteropReport, type Participant } from './run.ts';
import { SCENARIOS } from './scenarios.ts';
import { parseClassList } from '../commands/classes.ts';
import { checkFolderPath, CliError, type CliErrorCode } from '../commands/errors.ts';
import { parseVerb, str, verbHelp } from '../commands/options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The parsed command line of `interop`. */
export interface InteropArgs {
  /** Each participant: 'reference' for the in-process reference, else a testee command, in the order given. */
  readonly participants: readonly string[];
  readonly classes?: readonly string[];
  readonly reportDir: string;
  readonly timeoutMs?: number;
}

/** A usage error of `interop`. */
export class InteropUsageError extends CliError {
  override readonly name = 'InteropUsageError';
  constructor(code: CliErrorCode, message: string) {
    super(code, message);
  }
}

/** Reads `interop`'s arguments against its table (repeated --testee and --reference kept in order). */
export function parseInteropArgs(argv: readonly string[]): InteropArgs {
  let p;
  try {
    p = parseVerb('interop', argv);
  } catch (e) {
    if (e instanceof CliError) throw new InteropUsageError(e.code, e.message);
    throw e;
  }
  if (p.help) throw new InteropUsageError('missing-argument', 'interop --help prints the help (interopCommand), it names no run');
  const participants = p.given.flatMap((g) => (g.name === 'testee' ? [g.value!] : g.name === 'reference' ? ['reference'] : []));
  if (participants.length === 0) throw new InteropUsageError('missing-argument', "interop needs at least one --testee '<command>' (or --reference)");
  const classesFlag = str(p, 'classes');
  let classes: string[] | undefined;
  try {
    classes = classesFlag !== undefined ? parseClassList(classesFlag) : undefined;
  } catch (e) {
    if (e instanceof CliError) throw new InteropUsageError(e.code, e.message);
    throw e;
  }
  const known = SCENARIOS.map((s) => s.cls);
  for (const c of classes ?? []) if (!known.includes(c)) throw new InteropUsageError('unknown-class', `no interop scenario for ${c} (there are: ${known.join(', ')})`);
  const report = str(p, 'report');
  const timeout = str(p, 'timeout');
  return { participants, reportDir: report !== undefined ? resolve(report) : join(ROOT, 'reports', 'interop'), ...(classes ? { classes } : {}), ...(timeout !== undefined ? { timeoutMs: Number(timeout) } : {}) };
}

/** The participants of a run: labels "ref" for the in-process reference, T1, T2 … for testees in order. */
export function participantsOf(a: InteropArgs): Participant[] {
  let t = 0;
  let refs = 0;
  return a.participants.map((p) => {
    if (p === 'reference') {
      refs++;
      return { label: refs > 1 ? `ref${refs}` : 'ref', description: 'in-process reference', impl: new Implementation(inProcessTransport()) };
    }
    t++;
    return { label: `T${t}`, description: p, impl: new Implementation(testeeTransport(p, a.timeoutMs ? { timeoutMs: a.timeoutMs } : {})) };
  });
}

/** Runs interop as the arguments say and closes every testee afterwards. */
export async function interop(a: InteropArgs, progress?: (line: string) => void): Promise<InteropReport> {
  const ps = participantsOf(a);
  try {
    const differ = (m: ClassMatrix) => m.cells.filter((c) => c.status === 'DIFFER').length;
    return await runInterop(ps, {
      ...(a.classes ? { classes: a.classes } : {}),
      ...(progress ? { progress: (m: ClassMatrix) => progress(`${m.cls}: ${differ(m) ? `${differ(m)} cell(s) DIFFER` : 'done'}`) } : {}),
    });
  } finally {
    await Promise.all(ps.map((p) => p.impl.transport.close()));
  }
}

/** JSON with bigints as decimal strings (the report holds none, but a stray one must not crash the write). */
const toJson = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x), 2);

/** The `interop` command: runs, prints the matrices, writes interop.json and interop.md; the exit code. */
export async function interopCommand(argv: readonly string[]): Promise<number> {
  let a: InteropArgs;
  try {
    if (parseVerb('interop', argv).help) {
      process.stdout.write(verbHelp('interop'));
      return 0;
    }
    a = parseInteropArgs(argv);
    checkFolderPath(a.reportDir, 'the report folder');
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    process.stderr.write(`jcp-conformance: ${e.message}\n`);
    return e.exit;
  }
  const report = await interop(a, (l) => process.stderr.write(`  ${l}\n`));
  console.log(terminalReport(report));
  mkdirSync(a.reportDir, { recursive: true });
  writeFileSync(join(a.reportDir, 'interop.json'), toJson(report) + '\n');
  writeFileSync(join(a.reportDir, 'interop.md'), markdownReport(report));
  console.log(`reports in ${a.reportDir}: interop.json, interop.md`);
  return report.agree ? 0 : 1;
}
