// The command-line side of the differential properties, called from harness/cli.ts (options: replay's and promote's
// tables in harness/commands/options.ts):
//   replay <case> [--testee '<command>' | --reference] [--timeout <ms>]
//       re-runs a case file's operations against an implementation (default: the testee the case was found against,
//       or the in-process reference when it was found in-process) and the in-process reference, step by step
//   promote <case> [--name <vector-case-name>] [--comment <text>]
//       publishes the case's sequence as an OpSequence vector in its property's pack (vectors/promoted/, a new tcId,
//       the packs regenerated); refuses a case the reference itself would not reproduce
import { Implementation } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { testeeTransport } from '../drivers/testee.ts';
import { PROPERTIES } from './differential.ts';
import { readCase, replayCase, type PropertyCase } from './case.ts';
import { CliError } from '../commands/errors.ts';
import { readableFile } from '../commands/files.ts';
import { execute } from './model.ts';

/** Where a case's implementation is to be found: --testee, --reference, or the command the case names. */
function implementationFor(flags: ReadonlyMap<string, string | true>, found: string): { impl: Implementation; what: string } {
  const testee = flags.get('testee');
  const timeout = flags.get('timeout');
  const opts = typeof timeout === 'string' ? { timeoutMs: Number(timeout) } : {};
  if (typeof testee === 'string' && flags.has('reference')) throw new CliError('conflicting-options', '--testee and --reference each name the implementation to replay against: give one');
  if (typeof testee === 'string') return { impl: new Implementation(testeeTransport(testee, opts)), what: `testee: ${testee}` };
  if (flags.has('reference') || !found.startsWith('testee: ')) return { impl: new Implementation(inProcessTransport()), what: 'in-process reference' };
  const cmd = found.slice('testee: '.length);
  return { impl: new Implementation(testeeTransport(cmd, opts)), what: `testee: ${cmd} (from the case file)` };
}

const short = (v: unknown): string => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 140 ? `${s.slice(0, 137)}...` : s;
};

/** The case file at `path`, or a CliError naming it (missing, unreadable, not JSON, not a case). */
function caseAt(path: string): PropertyCase {
  readableFile(path);
  try {
    return readCase(path);
  } catch (e) {
    // readCase's errors are about the file's content and name it
    throw new CliError('bad-file', e instanceof Error ? e.message : String(e));
  }
}

/** `replay <case>`: exit 0 when the implementation agrees with the reference at every step and breaks no invariant. */
export async function replayCommand(positional: readonly string[], flags: ReadonlyMap<string, string | true>): Promise<number> {
  const path = positional[0];
  if (!path) throw new UsageError('missing-argument', "replay <case.json> [--testee '<command>' | --reference] [--timeout <ms>]");
  const c = caseAt(path);
  const { impl, what } = implementationFor(flags, c.implementation);
  const reference = new Implementation(inProcessTransport());
  console.log(`replaying ${path}: property ${c.property} (${c.clauses.join(' ')}), ${c.ops.length} operations, against ${what}`);
  console.log(`found against ${c.implementation} with seed ${c.seed} (path ${c.path || '-'}) after ${c.found_at_run} sequences: ${c.finding.detail}`);
  try {
    const r = await replayCase(c, reference, impl);
    r.steps.forEach((s, i) => {
      console.log(`${s.agree ? '  ' : '✗ '}${String(i).padStart(3)} ${c.ops[i]!.op.padEnd(15)} ${s.agree ? short(s.reference) : `reference ${short(s.reference)}\n${' '.repeat(21)}implementation ${short(s.implementation)}`}`);
    });
    if (r.finding) {
      console.log(`\n✗ ${r.finding.detail}`);
      return 1;
    }
    console.log('\n✓ the implementation agrees with the reference at every step and breaks no invariant');
    return 0;
  } finally {
    await impl.transport.close();
  }
}

/** A command used wrongly: the message says how. */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
}

/** `promote <case>`: writes vectors/promoted/<name>.json and regenerates the packs; prints the tcId. */
export async function promoteCommand(positional: readonly string[], flags: ReadonlyMap<string, string | true>): Promise<number> {
  const path = positional[0];
  if (!path) throw new UsageError('missing-argument', 'promote <case.json> [--name <vector-case-name>] [--comment <text>]');
  const c = caseAt(path);
  const prop = PROPERTIES[c.property];
  const reference = new Implementation(inProcessTransport());
  const expected_steps = (await execute(reference, c.ops)).map((o) => prop.project(o));
  const nameFlag = flags.get('name');
  const name = typeof nameFlag === 'string' ? nameFlag : `found-${c.property}-${c.seed}-${c.ops.length}ops-${path.replace(/^.*-([0-9a-f]{6})[0-9a-f]*\.json$/, '$1')}`;
  if (!/^[A-Za-z0-9^._-]+$/.test(name)) throw new UsageError('bad-value', `--name ${JSON.stringify(name)}: a vector case name is letters, digits and ^ . _ - only`);
  const commentFlag = flags.get('comment');
  const comment = typeof commentFlag === 'string' ? commentFlag : `found by differential/${c.property} against ${c.implementation}: ${c.finding.detail}`;
  // imported late: the generator loads every pack's cases, which this command does not otherwise need
  const { writePromoted } = await import('../../vectors/promoted.ts');
  const { generate, V1_DIR, readRegistry } = await import('../../vectors/gen.ts');
  const file = writePromoted({
    name,
    property: c.property,
    comment,
    clauses: [...prop.clauses],
    ops: c.ops,
    expected_steps,
    found: { seed: c.seed, path: c.path, implementation: c.implementation, finding: c.finding.detail },
  });
  await generate(V1_DIR, { register: true });
  const tcId = readRegistry()[prop.pack]?.[name];
  console.log(`promoted ${path} to ${file}: ${prop.pack}.json tcId ${tcId} (${name}); packs regenerated in ${V1_DIR}`);
  console.log('review and commit vectors/promoted/, vectors/tcids.json and vectors/conformance/v1/');
  return 0;
}
