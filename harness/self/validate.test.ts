// Self-test of `jcp-conformance validate` (harness/validate.ts) end to end, through the CLI and a testee process.
// Against the reference it reaches every operation of the protocol table (harness/protocol/schema.ts OPS), finds
// nothing and exits 0; against the reference with its own error taxonomy and no byte-contract claim it warns (!) and
// still exits 0 (harness/PROTOCOL.md "Grades"); against adapters whose answers keep the protocol's shape but get one
// thing wrong (harness/self/testees/validate-faults.ts, and rule breakers of mutation/testees/variant-main.ts) it prints
// the finding naming the op and the field, names no other op, and exits 1; a testee answering garbage is named as
// having broken the protocol.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleCommand, buildBundle, REFERENCE_TESTEE as REFERENCE, variantTestee } from './bundles.ts';
import { cliPath } from './cli.ts';
import { OPS } from '../protocol/schema.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FAULTY = (fault: string): string => bundleCommand('validate-faults', fault);
beforeAll(() => Promise.all([buildBundle('reference'), buildBundle('variant'), buildBundle('validate-faults')]), 60_000);
const OP_NAMES = Object.keys(OPS).filter((op) => op !== 'hello');

/** Runs the CLI's validate command against `testee`: exit status and everything printed. */
function validate(testee: string): { status: number; out: string } {
  const r = spawnSync(process.execPath, [cliPath(), 'validate', '--testee', testee], {
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

/** The finding (✗) and warning (!) lines printed. */
const lines = (out: string, mark: '✗' | '!'): string[] => out.split('\n').filter((l) => l.startsWith(`${mark} `));
/** The op a finding or warning line names. */
const opOf = (line: string): string => /^[✗!] ([a-z0-9.-]+): /.exec(line)?.[1] ?? `(no op in ${JSON.stringify(line)})`;

describe('jcp-conformance validate', () => {
  it('reaches every operation of the protocol against the reference, finds nothing and exits 0', () => {
    const r = validate(REFERENCE);
    expect(r.status, r.out).toBe(0);
    const seen = outcomes(r.out);
    expect([...seen.keys()].sort(), r.out).toEqual([...OP_NAMES].sort());
    expect(OP_NAMES.filter((op) => seen.get(op) === 'not reached'), r.out).toEqual([]);
    for (const op of OP_NAMES) expect(seen.get(op), op).toMatch(/^conforms( \(refused ERR_[A-Z0-9_]+\))?$/);
    expect(lines(r.out, '✗'), r.out).toEqual([]);
    expect(lines(r.out, '!'), r.out).toEqual([]);
    expect(r.out).toContain(`${OP_NAMES.length} of ${OP_NAMES.length} operations reached; unimplemented (0 operations)`);
    expect(r.out).toContain('every answer conforms to the protocol schema');
    expect(r.out).toContain('0 findings (✗), 0 warnings (!)');
  }, 120_000);

  it('warns, and exits 0, where a testee without the byte-contract claim refuses with codes of its own', () => {
    const r = validate('node --import tsx harness/self/testees/independent-main.ts');
    expect(r.status, r.out).toBe(0);
    expect(lines(r.out, '✗'), r.out).toEqual([]);
    expect(lines(r.out, '!'), r.out).toContain(
      "! grant.attenuate: $.error.code: an attenuation by a key other than the parent's subject: refused with ERR_ATTENUATION_VIOLATION; the suite's code for it is ERR_NOT_HOLDER (byte contract)",
    );
    expect(lines(r.out, '!').every((l) => l.endsWith('(byte contract)')), r.out).toBe(true);
    expect(r.out).toMatch(/\n0 findings \(✗\), [1-9]\d* warnings? \(!\)\n/);
  }, 120_000);

  // each fault: the finding line that must be printed, and the only ops any finding may name
  const faults: ReadonlyArray<readonly [string, string, RegExp, readonly string[]]> = [
    ['grant.verify echoing a wrong grant_id', FAULTY('wrong-grant-id'), /^✗ grant\.verify: \$\.ok\.grant_id: "f{8}…f{4}" is not the grant_id grant\.mint answered \("[0-9a-f]{8}…[0-9a-f]{4}"\)$/, ['grant.verify']],
    [
      'grant.mint dropping the caveats',
      FAULTY('mint-drop-caveats'),
      /^✗ grant\.mint: \$\.ok\.signed_grant: grant\.caveats: absent, but the mint was asked for \[\{"ActionIn":\["call","read"\]\},\{"MaxCostUj":9\}\]$/,
      ['grant.mint'],
    ],
    [
      "grant.verify's view dropping the caveats",
      FAULTY('view-drop-caveats'),
      /^✗ grant\.verify: \$\.ok\.grant\.caveats: absent, but the grant grant\.mint signed says \[\{"ActionIn":\["call","read"\]\},\{"MaxCostUj":9\}\]$/,
      ['grant.verify'],
    ],
    ['point.decide answering allow while its receipt says deny', FAULTY('allow-deny-receipt'), /^✗ point\.decide: \$\.ok\.verdict: "allow", but its receipt's core says "deny" /, ['point.decide']],
    ['point.spent not moving on allow', FAULTY('spent-stuck'), /^✗ point\.spent: \$\.ok\.spent_uj: 0 against the root after an allow of 3 µJ over the chain; expected 3 /, ['point.spent']],
    ['frame.check dropping model', FAULTY('frame-drop-model'), /^✗ frame\.check: \$\.ok\.frame\.model: absent, but the frame sent has "[0-9a-f]{8}…[0-9a-f]{4}"$/, ['frame.check']],
    [
      'grant.attenuate accepting a non-holder',
      FAULTY('attenuate-any-holder'),
      /^✗ grant\.attenuate: \$\.ok: an attenuation by a key other than the parent's subject was answered .* not refused \(jcp §4\.1: /,
      ['grant.attenuate'],
    ],
    [
      'cbor.check accepting a non-canonical input',
      variantTestee('accept-non-canonical'),
      /^✗ cbor\.check: \$\.ok: a map whose keys are out of canonical order \(\{"b": 1, "a": 2\}\) was answered "h'a2616102616201'", not refused /,
      ['cbor.check'],
    ],
    ['a deny that still debits', variantTestee('debit-on-deny'), /^✗ point\.spent: \$\.ok\.spent_uj: 7 against the child after an allow of 3 µJ and a deny; expected 3 /, ['point.spent']],
  ];
  for (const [what, testee, line, ops] of faults) {
    it(`finds ${what}, names the op and the field, and exits 1`, () => {
      const r = validate(testee);
      expect(r.status, r.out).toBe(1);
      const found = lines(r.out, '✗');
      expect(found.some((l) => line.test(l)), r.out).toBe(true);
      expect([...new Set(found.map(opOf))], r.out).toEqual(ops);
      expect(OP_NAMES.filter((op) => outcomes(r.out).get(op) === 'not reached'), r.out).toEqual([]);
      expect(r.out).toMatch(new RegExp(`\\n${found.length} findings? \\(✗\\), 0 warnings \\(!\\)\\n`));
    }, 120_000);
  }

  it('names a later-added op whose answer breaks the protocol, and exits 1', () => {
    const r = validate(variantTestee('garbage:channel.ledger'));
    expect(r.status, r.out).toBe(1);
    const seen = outcomes(r.out);
    expect(seen.get('channel.ledger'), r.out).toMatch(/^BROKE THE PROTOCOL/);
    expect(OP_NAMES.filter((op) => seen.get(op) === 'not reached'), r.out).toEqual([]);
    expect(r.out).toContain('1 operation(s) broke the protocol');
    expect(r.out).toContain('1 finding (✗), 0 warnings (!)');
  }, 120_000);

  it('refuses an unknown fault name rather than serving the faithful reference', () => {
    const r = validate(FAULTY('no-such-fault'));
    expect(r.status, r.out).toBe(1);
    expect(r.out).toMatch(/^hello: BROKE THE PROTOCOL/m);
  }, 120_000);
});
