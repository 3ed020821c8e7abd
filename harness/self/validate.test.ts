// Self-test of `jcp-conformance validate` (harness/validate.ts) end to end: against the reference run as a testee
// process it reaches every operation of the protocol table (harness/protocol/schema.ts OPS) — none "not reached" —
// and exits 0; against a testee that answers one of the later-added ops with garbage it names that op and exits 1.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPS } from '../protocol/schema.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REFERENCE = 'node --import tsx harness/adapter/testee-main.ts';
const OP_NAMES = Object.keys(OPS).filter((op) => op !== 'hello');

/** Runs the CLI's validate command against `testee`: exit status and everything printed. */
function validate(testee: string): { status: number; out: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'jcp-conformance.js'), 'validate', '--testee', testee], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '' },
  });
  return { status: r.status ?? -1, out: `${r.stdout}\n${r.stderr}` };
}

/** The outcome printed for each op, by op name. */
function outcomes(out: string): Map<string, string> {
  const lines = out.split('\n').map((l) => /^([a-z0-9-]+\.[a-z0-9.-]+): (.*)$/.exec(l)).filter((m) => m !== null);
  return new Map(lines.map((m) => [m[1]!, m[2]!]));
}

describe('jcp-conformance validate', () => {
  it('reaches every operation of the protocol against the reference and exits 0', () => {
    const r = validate(REFERENCE);
    expect(r.status, r.out).toBe(0);
    const seen = outcomes(r.out);
    expect([...seen.keys()].sort(), r.out).toEqual([...OP_NAMES].sort());
    const unreached = OP_NAMES.filter((op) => seen.get(op) === 'not reached');
    expect(unreached, r.out).toEqual([]);
    for (const op of OP_NAMES) expect(seen.get(op), op).toMatch(/^conforms( \(refused ERR_[A-Z0-9_]+\))?$/);
    expect(r.out).toContain(`${OP_NAMES.length} of ${OP_NAMES.length} operations reached`);
    expect(r.out).toContain('every answer conforms to the protocol schema');
  }, 120_000);

  it('names a later-added op whose answer breaks the protocol, and exits 1', () => {
    const r = validate('node --import tsx mutation/testees/variant-main.ts garbage:channel.ledger');
    expect(r.status, r.out).toBe(1);
    const seen = outcomes(r.out);
    expect(seen.get('channel.ledger'), r.out).toMatch(/^BROKE THE PROTOCOL/);
    expect(OP_NAMES.filter((op) => seen.get(op) === 'not reached'), r.out).toEqual([]);
    expect(r.out).toContain('1 operation(s) broke the protocol');
  }, 120_000);
});
