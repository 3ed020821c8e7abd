// The suite's own check of the published conformance/v1 packs (not a conformance test: it runs on the reference
// whatever is under test, so certify does not run it): the committed packs are exactly what vectors/gen.ts writes
// (vectors:check), one changed byte of any pack fails both that check and the replay (harness/conformance/vectors.test.ts
// replays them against the implementation under test), tcIds and intents are guarded, decisions.json names every deny
// reason of jcp §7, and a pack off its published schema is refused at load.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessTransport } from '../harness/drivers/in-process.ts';
import { Implementation } from '../harness/implementation.ts';
import { loadPacks, replayVector } from './replay.ts';
import type { Json, JsonObject, Pack, VectorTest } from './model.ts';

const V1 = join(dirname(fileURLToPath(import.meta.url)), 'conformance', 'v1');

const isHex = (v: Json): v is string => typeof v === 'string' && v.length >= 2 && v.length % 2 === 0 && /^[0-9a-f]+$/.test(v);

/** The path (keys) of the first hex string inside `v`, depth first. */
function firstHex(v: Json, path: Array<string | number> = []): Array<string | number> | undefined {
  if (isHex(v)) return path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = firstHex(v[i]!, [...path, i]);
      if (p) return p;
    }
  } else if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      const p = firstHex(v[k]!, [...path, k]);
      if (p) return p;
    }
  }
  return undefined;
}

/** The path of the first boolean inside `v`, depth first (for a pack whose answers hold no hex field). */
function firstBoolean(v: Json, path: Array<string | number> = []): Array<string | number> | undefined {
  if (typeof v === 'boolean') return path;
  const kids: Array<[string | number, Json]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : v !== null && typeof v === 'object' ? Object.entries(v) : [];
  for (const [k, x] of kids) {
    const p = firstBoolean(x, [...path, k]);
    if (p) return p;
  }
  return undefined;
}

/** `v` with one hex digit of the string at `path` changed: one byte of the pack, still valid JSON and schema. */
function flipAt(v: JsonObject, path: Array<string | number>): void {
  let o = v as unknown as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) o = o[k] as unknown as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  const s = o[last] as string;
  o[last] = ((parseInt(s[0]!, 16) ^ 1).toString(16)) + s.slice(1);
}

/** `v` with the boolean at `path` negated. */
function flipBooleanAt(v: JsonObject, path: Array<string | number>): void {
  let o = v as unknown as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) o = o[k] as unknown as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  o[last] = !(o[last] as boolean);
}

/** These checks run on the reference, whatever a certify run has under test. */
const reference = new Implementation(inProcessTransport());

describe('conformance/v1 is frozen: vectors:check, and one changed byte fails check and replay', () => {
  let fresh: string | undefined;
  let compareDirs: (a: string, b: string) => string | undefined;
  let checkVectors: (dir?: string) => Promise<string[]>;
  beforeAll(async () => {
    ({ compareDirs, checkVectors } = await import('./check.ts'));
  });
  // The generator's fresh packs, made by the first test that compares with them: made in beforeAll, the whole
  // reference would run outside every test, and Stryker would count each mutant it reaches as static.
  const freshPacks = async (): Promise<string> => {
    if (fresh === undefined) {
      const { generate } = await import('./gen.ts');
      const dir = mkdtempSync(join(tmpdir(), 'jcp-vectors-fresh-'));
      await generate(dir, { register: false });
      fresh = dir;
    }
    return fresh;
  };
  afterAll(() => {
    if (fresh !== undefined) rmSync(fresh, { recursive: true, force: true });
  });

  it('vectors:check passes on the committed packs', async () => {
    expect(await checkVectors(V1)).toEqual([]);
  }, 120_000);

  for (const { file, pack: committed } of loadPacks(V1)) {
    for (const side of ['expected', 'inputs'] as const) {
      // a pack whose answers hold no hex field has a boolean of an answer flipped instead
      const hexSide = committed.testGroups.some((g) => g.tests.some((t) => firstHex(t[side])));
      const find = hexSide ? firstHex : firstBoolean;
      it(`${file}: one ${hexSide ? 'byte changed in a hex field' : 'boolean flipped'} of a vector's ${side} fails both`, async () => {
        const copy = mkdtempSync(join(tmpdir(), 'jcp-vectors-copy-'));
        try {
          cpSync(V1, copy, { recursive: true });
          const pack = JSON.parse(readFileSync(join(copy, file), 'utf8')) as Pack;
          // a valid vector where the pack has one with a hex field there, else any
          const all = pack.testGroups.flatMap((g) => g.tests.map((t) => ({ g, t }))).filter(({ t }) => find(t[side]));
          const target = all.find(({ t }) => t.result === 'valid') ?? all[0];
          expect(target, `${file} has a vector with a ${hexSide ? 'hex' : 'boolean'} field in its ${side}`).toBeDefined();
          const { g, t } = target!;
          const path = find(t[side])!;
          if (hexSide) flipAt(t[side], path);
          else flipBooleanAt(t[side], path);
          writeFileSync(join(copy, file), `${JSON.stringify(pack, null, 2)}\n`);
          // vectors:check's comparison names the file
          expect(compareDirs(copy, await freshPacks())).toMatch(new RegExp(`^${file.replace('.', '\\.')}: first differing byte`));
          // the replay, reading the copy from disk, fails that vector
          const reloaded = loadPacks(copy).find((p) => p.file === file)!.pack;
          const again = reloaded.testGroups.find((x) => x.type === g.type)!.tests.find((x: VectorTest) => x.tcId === t.tcId)!;
          const failure = await replayVector(reference, g.type, again);
          expect(failure, `replay of ${file} tcId ${t.tcId} with ${side}.${path.join('.')} changed`).toMatch(/^tcId \d+/);
        } finally {
          rmSync(copy, { recursive: true, force: true });
        }
      }, 120_000);
    }
  }

  it('the whole vectors:check fails on a copy with one changed byte, naming the file and path', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'jcp-vectors-copy-'));
    try {
      cpSync(V1, copy, { recursive: true });
      const text = readFileSync(join(copy, 'receipts.json'), 'utf8');
      const m = /"receipt": "([0-9a-f])/.exec(text)!;
      const at = m.index + m[0].length - 1;
      writeFileSync(join(copy, 'receipts.json'), text.slice(0, at) + (parseInt(m[1]!, 16) ^ 1).toString(16) + text.slice(at + 1));
      const problems = await checkVectors(copy);
      expect(problems.join('\n')).toMatch(/drift from the committed packs: receipts\.json: first differing byte at offset \d+, at \$\.testGroups\[\d+\]\.tests\[\d+\]\.(inputs|expected)\./);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('conformance/v1 tcIds and intents are guarded', () => {
  it('a tcId whose case name changes, a dropped tcId and a reused tcId are each refused', async () => {
    const { registryProblems } = await import('./check.ts');
    const before = { grants: { 'mint-basic': 1, 'mint-expiry': 2, 'mint-depth-0': 3 } };
    expect(registryProblems(before, { grants: { ...before.grants, 'mint-new': 4 } })).toEqual([]);
    expect(registryProblems(before, { grants: { 'mint-basic': 1, 'mint-expiry-renamed': 2, 'mint-depth-0': 3 } })).toEqual([
      'grants tcId 2: its case name changed from mint-expiry to mint-expiry-renamed (tcIds are never renumbered or reused)',
    ]);
    expect(registryProblems(before, { grants: { 'mint-basic': 1, 'mint-depth-0': 3 } })).toEqual(['grants tcId 2 (mint-expiry) was removed from the registry']);
    expect(registryProblems(before, { grants: { ...before.grants, 'mint-dup': 3 } })).toEqual(['grants tcId 3 is given to both mint-depth-0 and mint-dup']);
  });

  it('the generator refuses to publish a case whose observed outcome is not the outcome it declares', async () => {
    const { checkIntent } = await import('./gen.ts');
    const { allCases } = await import('./cases.ts');
    const { execute } = await import('./execute.ts');
    const c = allCases().find((x) => x.pack === 'decisions' && x.name === 'deny-expired')!;
    const observed = await execute(reference, c.type, c.inputs);
    expect(() => checkIntent(c, observed)).not.toThrow();
    expect(() => checkIntent({ ...c, intent: { steps: [{ verdict: 'allow' }] } }, observed)).toThrow(/deny-expired: the reference decided step 0 deny expired/);
    const m = allCases().find((x) => x.pack === 'grants' && x.name === 'mint-subject-not-did')!;
    expect(() => checkIntent({ ...m, intent: { error: 'ERR_DID_MALFORMED' } }, { error: 'ERR_GRANT_MALFORMED' })).toThrow(/requires refusal ERR_DID_MALFORMED/);
  });
});

describe('conformance/v1 decisions.json names every deny reason of jcp §7', () => {
  it('each reason §7 lists (the single-grant checks and the chained path) is the expected outcome of some vector', () => {
    // jcp §7, in its order, then the chained path's structural reasons ("chain-broken / attenuation-violation")
    const SECTION_7 = ['untrusted-control', 'revoked', 'untrusted-root', 'wrong-resource', 'wrong-subject', 'bad-signature', 'expired', 'action-not-granted', 'budget-exceeded', 'chain-broken', 'attenuation-violation'];
    const pack = loadPacks(V1).find((p) => p.file === 'decisions.json')!.pack;
    const named = new Set(pack.testGroups.flatMap((g) => g.tests.flatMap((t) => ((t.expected['steps'] as JsonObject[] | undefined) ?? []).map((s) => s['deny_reason']))));
    expect(SECTION_7.filter((r) => !named.has(r))).toEqual([]);
  });
});

describe('conformance/v1 packs are checked against their published schemas', () => {
  it('a pack with upper-case hex, a missing field or a wrong count is refused at load, naming where', () => {
    const copy = mkdtempSync(join(tmpdir(), 'jcp-vectors-schema-'));
    try {
      cpSync(V1, copy, { recursive: true });
      const text = readFileSync(join(copy, 'grants.json'), 'utf8');
      const m = /"grant_id": "([0-9a-f]+)"/.exec(text)!;
      writeFileSync(join(copy, 'grants.json'), text.replace(m[0], `"grant_id": "${m[1]!.toUpperCase()}"`));
      expect(() => loadPacks(copy)).toThrow(/grants\.json: \$\.testGroups\[0\]: matches 0 branches of oneOf.*\.expected\.grant_id: "[0-9A-F]{40}" does not match/);
      const pack = JSON.parse(text) as Record<string, unknown> & { numberOfTests: number };
      writeFileSync(join(copy, 'grants.json'), JSON.stringify({ ...pack, numberOfTests: pack.numberOfTests + 1 }));
      expect(() => loadPacks(copy)).toThrow(/grants\.json: numberOfTests is \d+ but the pack holds \d+/);
      delete pack['notes'];
      writeFileSync(join(copy, 'grants.json'), JSON.stringify(pack));
      expect(() => loadPacks(copy)).toThrow(/grants\.json: \$: missing notes/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
