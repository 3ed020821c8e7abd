// Conformance: sense §4 the salience projection (suite-defined profile sense:P-OBSERVER): "the standard requires only
// that a conforming observer be deterministic under replay, and that the three scalars carry these meanings". The
// testee's observer is fed events (source class and trust level) in order and answers its three scalars after each,
// in parts per million.
//
// §4 lets a host substitute a model observer, and names no window length, no rounding and whether the current event is
// in its own window, so no exact value is asked. Determinism is asked exactly: the same events give the same
// projections, and the projections after the first k events do not depend on events after them (an observer consumes
// the stream in order). The meanings are asked as the comparisons every reading agrees on, on streams built for them:
// a burst of one source is more salient than a lone event of another just after it, and the lone event more novel;
// a window of Inferred or Untrusted events is more uncertain than one of Attested or FirstParty events; every scalar
// lies in [0, 1].
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { CborMap } from '../../impl/cbor/index.ts';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { assertProperty } from '../refusal.ts';

const OBSERVER = 'sense/4#observer-deterministic';
const ONE = 1_000_000n; // 1.0 in ppm

interface Ev {
  source: string;
  trust: string;
}
interface Proj {
  salience: bigint;
  novelty: bigint;
  uncertainty: bigint;
}

async function project(events: readonly Ev[]): Promise<Proj[]> {
  const r = await (await implementation())._call('observer.project', { events: events.map((e) => ({ ...e })) });
  const ps = r.get('projections') as CborMap[];
  expect(ps.length, 'one projection per event').toBe(events.length);
  return ps.map((p) => ({ salience: BigInt(p.get('salience') as bigint), novelty: BigInt(p.get('novelty') as bigint), uncertainty: BigInt(p.get('uncertainty') as bigint) }));
}

const run = (n: number, source: string, trust: string): Ev[] => Array.from({ length: n }, () => ({ source, trust }));
const SOURCES = ['file_change', 'shell', 'network', 'app_focus'] as const;
const TRUSTS = ['Attested', 'FirstParty', 'Inferred', 'Untrusted'] as const;
const eventsGen = fc.array(fc.record({ source: fc.constantFrom(...SOURCES), trust: fc.constantFrom(...TRUSTS) }), { maxLength: 40 });

describe('sense §4 the observer is deterministic under replay', () => {
  clauseIt([OBSERVER], 'the same events, replayed, project the same; a prefix projects as the start of the whole', async () => {
    await assertProperty(
      fc.asyncProperty(eventsGen, fc.nat(), async (events, cut) => {
        const first = await project(events);
        const again = await project(events);
        expect(again, 'a replay of the same events projects byte-identically').toEqual(first);
        const k = events.length === 0 ? 0 : cut % (events.length + 1);
        const prefix = await project(events.slice(0, k));
        expect(prefix, `the projections after the first ${k} events do not depend on the events after them`).toEqual(first.slice(0, k));
        for (const p of first) for (const s of [p.salience, p.novelty, p.uncertainty]) expect(s >= 0n && s <= ONE, `a scalar lies in [0, 1] (got ${s} ppm)`).toBe(true);
      }),
      fcParams(40),
    );
  });
});

describe('sense §4 the three scalars carry their meanings', () => {
  clauseIt([OBSERVER], 'a burst of one source is salient and not novel; a lone event of another source just after it is novel and not salient', async () => {
    const events = [...run(30, 'shell', 'FirstParty'), { source: 'network', trust: 'FirstParty' }];
    const ps = await project(events);
    const burst = ps[29]!;
    const lone = ps[30]!;
    expect(burst.salience > lone.salience, `salience: the bursting source (${burst.salience}) above the lone one (${lone.salience})`).toBe(true);
    expect(lone.novelty > burst.novelty, `novelty: the rare source (${lone.novelty}) above the common one (${burst.novelty})`).toBe(true);
  });

  clauseIt([OBSERVER], 'a window of Inferred or Untrusted events is more uncertain than one of Attested or FirstParty events', async () => {
    const last = async (trust: string): Promise<bigint> => (await project(run(30, 'file_change', trust)))[29]!.uncertainty;
    const low = { Untrusted: await last('Untrusted'), Inferred: await last('Inferred') };
    const high = { Attested: await last('Attested'), FirstParty: await last('FirstParty') };
    for (const [l, lu] of Object.entries(low)) for (const [h, hu] of Object.entries(high)) expect(lu > hu, `uncertainty: a window at ${l} (${lu}) above one at ${h} (${hu})`).toBe(true);
  });
});
