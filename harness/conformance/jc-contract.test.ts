// JouleClaw validation contracts and verdict receipts (jouleclaw §16), through the implementation under test: a
// contract/1 with duplicate ids or claims of unknown assertions refused; the verifier's rollup (any matching failure →
// failed; else any matching pass → verified; else any claim → claimed_unverified; else gap) and ship gate checked
// against an independent model of §16.4–§16.6 over random contracts and evidence; the verdict-receipt/1 core carrying
// verdict_json + verdict_hash + contract_hash, sealed in the JCR-1 COSE_Sign1 envelope.
//
// Readings the expected values rest on (the spec leaves them open; impl/jouleclaw/verdict.ts, contract-json.ts):
// - "canonical JSON" is RFC 8785 (JCS); `jcs` below is written from RFC 8785 independently of the reference.
// - evidence items are JSON objects tagged by "kind"; a tool check with args_hash matches only evidence carrying that
//   args_hash; an artifact check without expected_hash is passed by any artifact at its path.
// These clauses belong to no class of the spec: they make up the suite-defined profile jouleclaw:P-CONTRACT (spec-map/profiles.json),
// so their tests run against a testee that claims it.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { key, steward } from '../fixtures.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { decodeCanonical, decodeSign1, encodeCanonical, nodeEd25519, protectedHeaderBytes, sigStructure, signSign1, stewardKid, type CborMap } from '../oracle.ts';

const A_UNIQUE = 'jouleclaw/16.1#assertion-ids-unique';
const F_UNIQUE = 'jouleclaw/16.1#feature-ids-unique';
const CLAIMS_EXIST = 'jouleclaw/16.1#feature-claims-exist';
const MUST_BLOCKS = 'jouleclaw/16.2#must-have-blocks-ship';
const SHOULD_NOT = 'jouleclaw/16.2#should-have-not-blocking';
const VERSION = 'jouleclaw/16.6#producer-sets-contract-version';
const REJECT_DUP = 'jouleclaw/16.6#producer-rejects-duplicate-ids';
const REJECT_UNKNOWN = 'jouleclaw/16.6#producer-rejects-unknown-claims';
const ROLLUP = 'jouleclaw/16.6#verifier-rollup-rules';
const V_MUST = 'jouleclaw/16.6#verifier-blocks-must-have';
const V_SHOULD = 'jouleclaw/16.6#verifier-should-have-iff-flag';
const CORE = 'jouleclaw/16.7#verdict-json-in-signed-core';
const NEST = 'jouleclaw/16.7#wire-verdict-may-nest';
const HASH_EQ = 'jouleclaw/16.7#contract-hash-equals';
const INDEX = 'jouleclaw/16.7#may-index-by-contract-hash';
const TOOLING = 'jouleclaw/16.7#reuse-jcr1-tooling';

const utf8 = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const blake3Hex = (s: string): string => hex(nobleBlake3(utf8.encode(s)));

/** RFC 8785: members sorted by UTF-16 code units, no whitespace, ECMAScript number and string forms. */
function jcs(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${jcs(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

type Check = { kind: 'tool'; tool_id: string; args_hash?: string | undefined } | { kind: 'artifact'; path: string; expected_hash?: string | undefined } | { kind: 'command'; command_hash: string; expected_exit: number } | { kind: 'checker'; checker_id: string };
type Evidence =
  | { kind: 'tool_result'; tool_id: string; args_hash?: string | undefined; passed: boolean }
  | { kind: 'artifact_present'; path: string; hash: string }
  | { kind: 'command_run'; command_hash: string; exit_code: number }
  | { kind: 'checker_result'; checker_id: string; passed: boolean };
interface Assertion {
  id: string;
  title: string;
  priority: 'must_have' | 'should_have' | 'nice_to_have';
  check: Check;
}
interface Contract {
  jc_contract: string;
  title: string;
  authored_by: string;
  assertions: Assertion[];
  features: { id: string; title: string; claims: string[] }[];
  acceptance?: { block_on_should_have: boolean };
}

const assertion = (id: string, priority: Assertion['priority'], check: Check): Assertion => ({ id, title: `assertion ${id}`, priority, check });
const baseContract = (): Contract => ({
  jc_contract: 'contract/1',
  title: 'ship the parser',
  authored_by: key('jc:orchestrator').did,
  assertions: [
    assertion('A-001', 'must_have', { kind: 'tool', tool_id: 'lint' }),
    assertion('A-002', 'should_have', { kind: 'artifact', path: 'dist/parser.js', expected_hash: 'aa' }),
    assertion('A-003', 'must_have', { kind: 'command', command_hash: 'c0', expected_exit: 0 }),
    assertion('A-004', 'nice_to_have', { kind: 'checker', checker_id: 'docs' }),
  ],
  features: [
    { id: 'F-001', title: 'parser', claims: ['A-001', 'A-002'] },
    { id: 'F-002', title: 'tests', claims: ['A-003'] },
  ],
});
const allPass: Evidence[] = [
  { kind: 'tool_result', tool_id: 'lint', passed: true },
  { kind: 'artifact_present', path: 'dist/parser.js', hash: 'aa' },
  { kind: 'command_run', command_hash: 'c0', exit_code: 0 },
  { kind: 'checker_result', checker_id: 'docs', passed: true },
];

// ---- the model of §16.4–§16.6, independent of impl/jouleclaw/verdict.ts ----
/** §16.4: undefined = no match; true = a pass; false = a failure. */
function judge(c: Check, e: Evidence): boolean | undefined {
  if (c.kind === 'tool' && e.kind === 'tool_result' && e.tool_id === c.tool_id && (c.args_hash === undefined || e.args_hash === c.args_hash)) return e.passed;
  if (c.kind === 'artifact' && e.kind === 'artifact_present' && e.path === c.path) return c.expected_hash === undefined || e.hash === c.expected_hash;
  if (c.kind === 'command' && e.kind === 'command_run' && e.command_hash === c.command_hash) return e.exit_code === c.expected_exit;
  if (c.kind === 'checker' && e.kind === 'checker_result' && e.checker_id === c.checker_id) return e.passed;
  return undefined;
}
function model(c: Contract, ev: Evidence[]): { rollups: string[]; passed: boolean; blocking: string[]; should: string[] } {
  const rollups = c.assertions.map((a) => {
    const js = ev.map((e) => judge(a.check, e));
    if (js.includes(false)) return 'failed';
    if (js.includes(true)) return 'verified';
    return c.features.some((f) => f.claims.includes(a.id)) ? 'claimed_unverified' : 'gap';
  });
  const blocking = c.assertions.filter((a, i) => a.priority === 'must_have' && rollups[i] !== 'verified').map((a) => a.id);
  const should = c.assertions.filter((a, i) => a.priority === 'should_have' && rollups[i] !== 'verified').map((a) => a.id);
  return { rollups, passed: blocking.length === 0 && (c.acceptance?.block_on_should_have !== true || should.length === 0), blocking, should };
}

interface Row {
  assertion: string;
  rollup: string;
}
const rowsOf = (v: Record<string, unknown>): Row[] => (v['coverage'] as { rows: Row[] }).rows;

describe('jouleclaw §16.1/§16.6 a contract/1 refused at the producer', () => {
  clauseIt([A_UNIQUE, REJECT_DUP], 'a contract with two assertions of one id is refused', async () => {
    const impl = implementation();
    const c = baseContract();
    expect(await impl.jcCheckContract(c)).toBe(blake3Hex(jcs(c)));
    c.assertions.push(assertion('A-003', 'nice_to_have', { kind: 'checker', checker_id: 'other' }));
    await expectCode(impl.jcCheckContract(c), 'ERR_CONTRACT_DUPLICATE_ID');
    await expectCode(impl.jcVerifyContract(c, allPass), 'ERR_CONTRACT_DUPLICATE_ID');
  });

  clauseIt([F_UNIQUE, REJECT_DUP], 'a contract with two features of one id is refused', async () => {
    const impl = implementation();
    const c = baseContract();
    c.features.push({ id: 'F-001', title: 'again', claims: [] });
    await expectCode(impl.jcCheckContract(c), 'ERR_CONTRACT_DUPLICATE_ID');
    await expectCode(impl.jcVerifyContract(c, allPass), 'ERR_CONTRACT_DUPLICATE_ID');
  });

  clauseIt([CLAIMS_EXIST, REJECT_UNKNOWN], 'a feature claiming an assertion id the contract lacks is refused', async () => {
    const impl = implementation();
    const c = baseContract();
    c.features[1]!.claims.push('A-404');
    await expectCode(impl.jcCheckContract(c), 'ERR_CONTRACT_UNKNOWN_CLAIM');
    await expectCode(impl.jcVerifyContract(c, allPass), 'ERR_CONTRACT_UNKNOWN_CLAIM');
    // an assertion claimed by no feature is fine (it rolls up to gap)
    const d = baseContract();
    d.features = [];
    expect(await codeOf(impl.jcCheckContract(d))).toBe('accepted');
  });

  // the producer-side rule is "set jc_contract to contract/1"; what a testee can be shown doing is reading nothing else
  // as a contract/1 — another major is refused, a missing tag is malformed (reading: §7 applies to jc_contract too)
  clauseIt([VERSION], 'only jc_contract "contract/1" is read as a contract/1', async () => {
    const impl = implementation();
    const c = baseContract();
    await expectCode(impl.jcCheckContract({ ...c, jc_contract: 'contract/2' }), 'ERR_JC_SCHEMA_UNKNOWN');
    await expectCode(impl.jcCheckContract({ ...c, jc_contract: 'verdict/1' }), 'ERR_JC_SCHEMA_UNKNOWN');
    const { jc_contract: _, ...untagged } = c;
    await expectCode(impl.jcCheckContract(untagged), 'ERR_CONTRACT_MALFORMED');
    const { verdict } = await impl.jcVerifyContract(c, allPass);
    expect(verdict['jc_verdict']).toBe('verdict/1');
    expect(verdict['contract_hash']).toBe(blake3Hex(jcs(c)));
  });
});

describe('jouleclaw §16.5/§16.6 the verifier', () => {
  clauseIt([ROLLUP], 'a matching failure is failed even beside a pass; no match is claimed_unverified or gap', async () => {
    const impl = implementation();
    const c = baseContract();
    const rollups = async (ev: Evidence[]): Promise<string[]> => rowsOf((await impl.jcVerifyContract(c, ev)).verdict).map((r) => r.rollup);
    expect(await rollups(allPass)).toEqual(['verified', 'verified', 'verified', 'verified']);
    // a later success does not mask a failure, nor an earlier one
    expect(await rollups([...allPass, { kind: 'tool_result', tool_id: 'lint', passed: false }])).toEqual(['failed', 'verified', 'verified', 'verified']);
    expect(await rollups([{ kind: 'command_run', command_hash: 'c0', exit_code: 1 }, ...allPass])).toEqual(['verified', 'verified', 'failed', 'verified']);
    expect(await rollups([{ kind: 'artifact_present', path: 'dist/parser.js', hash: 'bb' }])).toEqual(['claimed_unverified', 'failed', 'claimed_unverified', 'gap']);
    // evidence whose discriminants differ does not match
    expect(await rollups([{ kind: 'tool_result', tool_id: 'docs', passed: false }, { kind: 'checker_result', checker_id: 'lint', passed: false }])).toEqual(['claimed_unverified', 'claimed_unverified', 'claimed_unverified', 'gap']);
  });

  clauseIt([ROLLUP, V_MUST, V_SHOULD, MUST_BLOCKS, SHOULD_NOT], 'rollup, gaps and ship gate equal the model of §16.4–§16.6 on random contracts and evidence', async () => {
    const impl = implementation();
    const TOOLS = ['lint', 'fmt'];
    const PATHS = ['a.out', 'b.out'];
    const HASHES = ['h1', 'h2'];
    const CMDS = ['c1', 'c2'];
    const check: fc.Arbitrary<Check> = fc.oneof(
      fc.record({ kind: fc.constant('tool' as const), tool_id: fc.constantFrom(...TOOLS), args_hash: fc.option(fc.constantFrom(...HASHES), { nil: undefined }) }),
      fc.record({ kind: fc.constant('artifact' as const), path: fc.constantFrom(...PATHS), expected_hash: fc.option(fc.constantFrom(...HASHES), { nil: undefined }) }),
      fc.record({ kind: fc.constant('command' as const), command_hash: fc.constantFrom(...CMDS), expected_exit: fc.constantFrom(0, 1) }),
      fc.record({ kind: fc.constant('checker' as const), checker_id: fc.constantFrom(...TOOLS) }),
    );
    const evidence: fc.Arbitrary<Evidence> = fc.oneof(
      fc.record({ kind: fc.constant('tool_result' as const), tool_id: fc.constantFrom(...TOOLS), args_hash: fc.option(fc.constantFrom(...HASHES), { nil: undefined }), passed: fc.boolean() }),
      fc.record({ kind: fc.constant('artifact_present' as const), path: fc.constantFrom(...PATHS), hash: fc.constantFrom(...HASHES) }),
      fc.record({ kind: fc.constant('command_run' as const), command_hash: fc.constantFrom(...CMDS), exit_code: fc.constantFrom(0, 1, 2) }),
      fc.record({ kind: fc.constant('checker_result' as const), checker_id: fc.constantFrom(...TOOLS), passed: fc.boolean() }),
    );
    const contract: fc.Arbitrary<Contract> = fc
      .record({
        assertions: fc.array(fc.record({ priority: fc.constantFrom('must_have' as const, 'should_have' as const, 'nice_to_have' as const), check }), { minLength: 1, maxLength: 5 }),
        claims: fc.array(fc.array(fc.nat(4), { maxLength: 3 }), { maxLength: 3 }),
        block: fc.option(fc.boolean(), { nil: undefined }),
      })
      .map(({ assertions, claims, block }) => {
        const as = assertions.map((a, i) => assertion(`A-${i}`, a.priority, a.check));
        return {
          jc_contract: 'contract/1',
          title: 'random',
          authored_by: '',
          assertions: as,
          features: claims.map((cl, i) => ({ id: `F-${i}`, title: `f${i}`, claims: [...new Set(cl.filter((n) => n < as.length).map((n) => `A-${n}`))] })),
          ...(block !== undefined ? { acceptance: { block_on_should_have: block } } : {}),
        };
      });
    // strip undefined optionals so the JSON sent is exactly what the model judged
    const clean = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    await assertProperty(
      fc.asyncProperty(contract, fc.array(evidence, { maxLength: 8 }), async (c0, ev0) => {
        const c = clean(c0);
        const ev = clean(ev0);
        const want = model(c, ev);
        const { verdict } = await impl.jcVerifyContract(c, ev);
        expect(rowsOf(verdict).map((r) => r.rollup)).toEqual(want.rollups);
        expect(rowsOf(verdict).map((r) => r.assertion)).toEqual(c.assertions.map((a) => a.id));
        expect(verdict['blocking_gaps']).toEqual(want.blocking);
        expect(verdict['should_have_gaps']).toEqual(want.should);
        expect(verdict['passed']).toBe(want.passed);
        expect(verdict['contract_hash']).toBe(blake3Hex(jcs(c)));
      }),
      fcParams(60),
    );
  });

  clauseIt([MUST_BLOCKS, V_MUST], 'one must_have not verified blocks ship, whatever else passed', async () => {
    const impl = implementation();
    for (const drop of ['tool_result', 'command_run']) {
      const { verdict } = await impl.jcVerifyContract(baseContract(), allPass.filter((e) => e.kind !== drop));
      expect(verdict['passed']).toBe(false);
      expect(verdict['blocking_gaps']).toEqual([drop === 'tool_result' ? 'A-001' : 'A-003']);
    }
  });

  clauseIt([SHOULD_NOT, V_SHOULD], 'a should_have not verified blocks ship only when acceptance.block_on_should_have is true', async () => {
    const impl = implementation();
    const noArtifact = allPass.filter((e) => e.kind !== 'artifact_present');
    const passedWith = async (acceptance?: { block_on_should_have: boolean }): Promise<unknown> =>
      (await impl.jcVerifyContract({ ...baseContract(), ...(acceptance ? { acceptance } : {}) }, noArtifact)).verdict['passed'];
    expect(await passedWith()).toBe(true);
    expect(await passedWith({ block_on_should_have: false })).toBe(true);
    expect(await passedWith({ block_on_should_have: true })).toBe(false);
    // a nice_to_have gap never blocks, flag or not
    const noDocs = allPass.filter((e) => e.kind !== 'checker_result');
    expect((await impl.jcVerifyContract({ ...baseContract(), acceptance: { block_on_should_have: true } }, noDocs)).verdict['passed']).toBe(true);
  });
});

describe('jouleclaw §16.7 the verdict receipt', () => {
  const fields = { id: '3f2b8c1e-9a4d-4c6e-8f1a-2b3c4d5e6f70', closed_at: '2026-11-30T06:00:00Z', engine_id: 'validator-1', audit_sequence: 7n };

  clauseIt([CORE, INDEX, TOOLING], 'the signed core carries verdict_json and verdict_hash = BLAKE3(verdict_json), in the JCR-1 envelope', async () => {
    const impl = implementation();
    const c = baseContract();
    const { verdict_json } = await impl.jcVerifyContract(c, allPass);
    const receipt = await impl.jcSealVerdict({ steward_seed: steward.seed, ...fields, verdict_json, contract: c });
    const s = decodeSign1(receipt);
    // protected = {1: -8, 4: steward}, unprotected = {}
    expect(hex(s.protectedBytes)).toBe(hex(protectedHeaderBytes(stewardKid(steward.did))));
    expect(s.unprotected.size).toBe(0);
    expect(nodeEd25519.verify(s.signature, sigStructure(s.protectedBytes, s.payload), steward.publicKey)).toBe(true);
    const core = decodeCanonical(s.payload) as CborMap;
    expect(Object.fromEntries(core)).toEqual({
      jc_receipt: 'verdict-receipt/1',
      id: fields.id,
      closed_at: fields.closed_at,
      steward: steward.did,
      engine_id: fields.engine_id,
      audit_sequence: 7,
      contract_hash: blake3Hex(jcs(c)), // indexable without parsing verdict_json
      verdict_json,
      verdict_hash: blake3Hex(verdict_json),
    });
  });

  clauseIt([HASH_EQ], 'contract_hash is the content hash of the contract the verdict was produced against, or the receipt is refused', async () => {
    const impl = implementation();
    const c = baseContract();
    const other = { ...baseContract(), title: 'another mission' };
    const { verdict_json } = await impl.jcVerifyContract(c, allPass);
    await expectCode(impl.jcSealVerdict({ steward_seed: steward.seed, ...fields, verdict_json, contract: other }), 'ERR_VERDICT_CONTRACT_MISMATCH');
    const receipt = await impl.jcSealVerdict({ steward_seed: steward.seed, ...fields, verdict_json });
    expect((await impl.jcOpenVerdict(receipt, c))['contract_hash']).toBe(blake3Hex(jcs(c)));
    await expectCode(impl.jcOpenVerdict(receipt, other), 'ERR_VERDICT_CONTRACT_MISMATCH');
    // a core whose contract_hash is not its verdict's, validly signed: refused
    const core = Object.fromEntries(decodeCanonical(decodeSign1(receipt).payload) as CborMap);
    const forged = signSign1(encodeCore({ ...core, contract_hash: blake3Hex(jcs(other)) }), stewardKid(steward.did), steward.seed, nodeEd25519);
    await expectCode(impl.jcOpenVerdict(forged), 'ERR_VERDICT_CONTRACT_MISMATCH');
  });

  clauseIt([CORE], 'a verdict_hash that is not BLAKE3 of verdict_json is refused, however validly signed', async () => {
    const impl = implementation();
    const { verdict_json } = await impl.jcVerifyContract(baseContract(), allPass);
    const receipt = await impl.jcSealVerdict({ steward_seed: steward.seed, ...fields, verdict_json });
    const core = Object.fromEntries(decodeCanonical(decodeSign1(receipt).payload) as CborMap);
    const edited = verdict_json.replace('"passed":true', '"passed":false');
    expect(edited).not.toBe(verdict_json);
    const forged = signSign1(encodeCore({ ...core, verdict_json: edited }), stewardKid(steward.did), steward.seed, nodeEd25519);
    await expectCode(impl.jcOpenVerdict(forged), 'ERR_VERDICT_HASH_MISMATCH');
  });

  clauseIt([NEST, TOOLING], 'the wire form nests the verdict; a kid that disagrees with the steward is refused', async () => {
    const impl = implementation();
    const { verdict_json } = await impl.jcVerifyContract(baseContract(), allPass);
    const receipt = await impl.jcSealVerdict({ steward_seed: steward.seed, ...fields, verdict_json });
    const wire = await impl.jcOpenVerdict(receipt);
    expect(wire['verdict']).toEqual(JSON.parse(verdict_json));
    expect(wire['steward']).toBe(steward.did);
    const mallory = key('mallory');
    const core = decodeSign1(receipt).payload;
    const wrongKid = signSign1(core, stewardKid(mallory.did), mallory.seed, nodeEd25519);
    await expectCode(impl.jcOpenVerdict(wrongKid), 'ERR_RECEIPT_STEWARD_MISMATCH');
  });
});

/** The canonical CBOR of a core given as a plain object of decoded values. */
function encodeCore(core: Record<string, unknown>): Uint8Array {
  return encodeCanonical(core as never);
}
