// Self-tests of the testee driver against testees that hang, crash, exit early, write garbage or an oversized frame:
// each yields a clear TesteeFailure on the request it touched, and the next request gets a fresh testee.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, REFERENCE_TESTEE, variantTestee as variant } from './bundles.ts';
import { Implementation, TesteeFailure } from '../implementation.ts';
import { testeeTransport } from '../drivers/testee.ts';
import { alice, bob, nonce, TOOL } from '../fixtures.ts';

beforeAll(() => Promise.all([buildBundle('reference'), buildBundle('variant')]), 60_000);

async function failureOf(p: Promise<unknown>): Promise<TesteeFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TesteeFailure) return e;
    throw e;
  }
  throw new Error('expected a TesteeFailure, the request succeeded');
}

const mint = (impl: Implementation, label: string) =>
  impl.mintGrant(alice.seed, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 5n, nonce: nonce(label) });

describe('the testee driver survives a bad testee', () => {
  for (const [v, kind, what] of [
    ['slow:grant.mint', 'timeout', 'no response within'],
    ['crash:grant.mint', 'crash', 'exited (code 70)'],
    ['garbage:grant.mint', 'protocol', 'not a canonical CBOR frame'],
    ['oversize:grant.mint', 'protocol', 'over the size cap'],
  ] as const) {
    it(`${v}: the request fails as ${kind}, and the next request is served by a respawned testee`, async () => {
      const t = testeeTransport(variant(v), { timeoutMs: 2500 });
      const impl = new Implementation(t);
      try {
        const f = await failureOf(mint(impl, 'first'));
        expect(f.kind).toBe(kind);
        expect(f.message).toContain(what);
        expect(f.transcript?.request).toMatch(/^[0-9a-f]+$/);
        // the testee was killed; another operation spawns and handshakes a new one
        const id = await impl.fromSeed(alice.seed);
        expect(id.did).toBe(alice.did);
      } finally {
        await t.close();
      }
    }, 20_000);
  }

  it('exit-early: the handshake fails as a crash, every time, without hanging', async () => {
    const t = testeeTransport(variant('exit-early'), { timeoutMs: 2500 });
    const impl = new Implementation(t);
    for (let i = 0; i < 2; i++) {
      const f = await failureOf(impl.fromSeed(alice.seed));
      expect(f.kind).toBe('crash');
      expect(f.message).toContain('exited (code 4)');
    }
    await t.close();
  }, 20_000);

  it('a command that does not exist fails as a crash naming the shell status', async () => {
    const t = testeeTransport('/nonexistent/testee-binary', { timeoutMs: 2500 });
    const f = await failureOf(new Implementation(t).fromSeed(alice.seed));
    expect(f.kind).toBe('crash');
    expect(f.transcript?.stderr ?? '').toMatch(/not found|No such file/);
    await t.close();
  }, 20_000);
});

describe('the testee driver keeps one request in flight', () => {
  it('overlapping requests are queued and each gets its own answer', async () => {
    const t = testeeTransport(REFERENCE_TESTEE);
    try {
      const impl = new Implementation(t);
      const seeds = [alice.seed, bob.seed, alice.seed, bob.seed];
      const got = await Promise.all(seeds.map((s) => impl.fromSeed(s)));
      expect(got.map((g) => g.did)).toEqual([alice.did, bob.did, alice.did, bob.did]);
    } finally {
      await t.close();
    }
  }, 30_000);
});
