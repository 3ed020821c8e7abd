// Conformance: sense §2–§6 (sense:C1–C4). Capture determinism (event ids, the HLC across a restart, the replay digest),
// provenance and trust bound into the id, the attention decision (highlights against the prior baseline; the gate's
// value test first; surfacing debits, a hold spends nothing), and the synthesis cascade (Tier-0 recall with no model
// call and an honest zero estimate; escalation otherwise). Expected bytes are derived here from the spec's text and
// the suite's published readings (impl/sense/*.ts headers), with BLAKE3 from the oracle, never from the testee.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import { clauseIt } from '../clause.ts';
import { assertProperty, expectCode } from '../refusal.ts';
import { fcParams } from '../external-vectors.ts';
import { blake3, concatBytes, fromHex, sense, toHex } from '../oracle.ts';

const utf8 = new TextEncoder();
const { SCALE_PPM, HIGHLIGHT_FLOOR_PPM, SURFACE_MARGIN_PPM, INTERFERENCE_PPM } = sense;

type WireEvent = { physical_ns: bigint; logical: bigint; source: string; trust: string; payload: Uint8Array; line: string; valid_time_ns?: bigint };
const wire = (physical_ns: bigint, source: string, line: string, trust = 'FirstParty', logical = 0n): WireEvent => ({
  physical_ns,
  logical,
  source,
  trust,
  payload: utf8.encode(`raw:${source}:${line}`),
  line,
});
const asInput = (e: WireEvent) => ({ ...e }) as unknown as Record<string, never>;

/** The content id by the suite's layout (impl/sense/event.ts header), built here field by field. */
function expectedEventId(e: WireEvent): string {
  const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  const lp = (b: Uint8Array) => concatBytes(u32(b.length), b);
  const hlc = new Uint8Array(12);
  new DataView(hlc.buffer).setBigUint64(0, e.physical_ns);
  new DataView(hlc.buffer).setUint32(8, Number(e.logical));
  const vt = new Uint8Array(e.valid_time_ns === undefined ? 0 : 8);
  if (e.valid_time_ns !== undefined) new DataView(vt.buffer).setBigUint64(0, e.valid_time_ns);
  return toHex(blake3(concatBytes(lp(hlc), lp(utf8.encode(e.source)), lp(vt), lp(utf8.encode(e.trust)), lp(blake3(e.payload)), lp(utf8.encode(e.line)))));
}

/** A fixed little log: what a host saw in one session. */
const SESSION: WireEvent[] = [
  wire(1_000n, 'file_change', 'modified src/main.ts'),
  wire(1_000n, 'shell', 'npm test', 'FirstParty', 1n),
  wire(2_000n, 'app_focus', 'focused editor'),
  wire(3_000n, 'system_log', 'disk nearly full', 'Inferred'),
  wire(4_000n, 'file_change', 'modified README.md'),
  wire(5_000n, 'shell', 'git status'),
  wire(6_000n, 'salience', 'surfaced: build failing', 'Attested'),
];

const SOURCES = ['file_change', 'app_focus', 'system_log', 'process_tree', 'thermal_power', 'shell', 'accessibility', 'network', 'endpoint', 'salience', 'vendor:1024', 'vendor:4242'];
const TRUSTS = ['Attested', 'FirstParty', 'Inferred', 'Untrusted'];
const arbWire = fc.record({
  physical_ns: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
  logical: fc.bigInt({ min: 0n, max: 0xffff_ffffn }),
  source: fc.constantFrom(...SOURCES),
  trust: fc.constantFrom(...TRUSTS),
  payload: fc.uint8Array({ maxLength: 48 }),
  line: fc.string({ maxLength: 32 }),
  valid_time_ns: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined }),
}).map((r) => (r.valid_time_ns === undefined ? (({ valid_time_ns: _v, ...rest }) => rest)(r) : r) as WireEvent);

describe('sense §2, §3 capture determinism and provenance (C1, C2)', () => {
  clauseIt(['sense/3#cid-blake3-hex'], "a payload's Cid is blake3 of its bytes in lowercase hex", async () => {
    for (const e of SESSION) {
      const r = await implementation().senseEventId(asInput(e));
      expect(r.payload).toBe(toHex(blake3(e.payload)));
      expect(r.payload).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  clauseIt(['sense/2#event-id-fixed-concatenation'], 'an event id is blake3 over the fixed-order, length-prefixed concatenation of its fields', async () => {
    await assertProperty(
      fc.asyncProperty(arbWire, async (e) => {
        expect((await implementation().senseEventId(asInput(e))).event_id).toBe(expectedEventId(e));
      }),
      fcParams(40),
    );
    // absent valid time is not the valid time 0: the length prefix keeps them apart
    const e = SESSION[0]!;
    expect((await implementation().senseEventId(asInput({ ...e, valid_time_ns: 0n }))).event_id).not.toBe((await implementation().senseEventId(asInput(e))).event_id);
  });

  clauseIt(['sense/2#event-id-binds-source-trust'], 're-tagging an event’s source class or trust level changes its id', async () => {
    await assertProperty(
      fc.asyncProperty(arbWire, fc.constantFrom(...SOURCES), fc.constantFrom(...TRUSTS), async (e, source, trust) => {
        const id = (await implementation().senseEventId(asInput(e))).event_id;
        if (source !== e.source) expect((await implementation().senseEventId(asInput({ ...e, source }))).event_id).not.toBe(id);
        if (trust !== e.trust) expect((await implementation().senseEventId(asInput({ ...e, trust }))).event_id).not.toBe(id);
      }),
      fcParams(30),
    );
  });

  clauseIt(['sense/2#event-id-binds-source-trust'], 'an event of no known class or trust level is refused, never re-tagged', async () => {
    for (const bad of [{ source: 'inotify' }, { source: 'vendor:1023' }, { trust: 'Trusted' }, { trust: 'attested' }]) {
      await expectCode(implementation().senseEventId(asInput({ ...SESSION[0]!, ...bad })), 'ERR_SENSE_EVENT_MALFORMED');
    }
  });

  clauseIt(['sense/3#replay-digest'], 'two hosts fed the same events replay them in clock order to the same digest: blake3 over the ids in order', async () => {
    const ordered = [...SESSION];
    const expectedIds = ordered.map(expectedEventId);
    const digest = toHex(blake3(concatBytes(...expectedIds.map((id) => fromHex(id)))));
    const a = await implementation().senseReplay(SESSION.map(asInput));
    const b = await implementation().senseReplay([...SESSION].reverse().map(asInput));
    expect(a.event_ids).toEqual(expectedIds);
    expect(a.replay_digest).toBe(digest);
    expect(b).toEqual(a);
    // events_since a cursor: strictly after it
    const since = await implementation().senseReplay(SESSION.map(asInput), { physical_ns: 1_000n, logical: 1n });
    expect(since.event_ids).toEqual(expectedIds.slice(2));
    expect(since.replay_digest).toBe(toHex(blake3(concatBytes(...expectedIds.slice(2).map((id) => fromHex(id))))));
  });

  clauseIt(['sense/3#replay-digest'], 'the digest of any log is independent of the order events were fed', async () => {
    await assertProperty(
      fc.asyncProperty(fc.uniqueArray(arbWire, { minLength: 1, maxLength: 8, selector: (e) => `${e.physical_ns}/${e.logical}` }), fc.nat(), async (events, seed) => {
        const shuffled = [...events].sort((x, y) => ((x.line.length * 31 + seed) % 7) - ((y.line.length * 31 + seed) % 7));
        const sorted = [...events].sort((x, y) => (x.physical_ns === y.physical_ns ? Number(x.logical - y.logical) : x.physical_ns < y.physical_ns ? -1 : 1));
        const r = await implementation().senseReplay(shuffled.map(asInput));
        expect(r.event_ids).toEqual(sorted.map(expectedEventId));
        expect(r.replay_digest).toBe(toHex(blake3(concatBytes(...sorted.map((e) => fromHex(expectedEventId(e)))))));
      }),
      fcParams(25),
    );
  });

  clauseIt(['sense/3#hlc-strictly-past-restart'], 'a clock seeded past the maximum stored stamp issues stamps strictly above every stored one, in strict order', async () => {
    // a restart where the wall clock went backwards: every new stamp still exceeds the stored maximum
    const stamps = await implementation().senseClock([10n, 500n, 500n, 2_000n, 1_999n], { physical_ns: 1_000n, logical: 4n });
    expect(stamps).toEqual([
      { physical_ns: 1_000n, logical: 5n },
      { physical_ns: 1_000n, logical: 6n },
      { physical_ns: 1_000n, logical: 7n },
      { physical_ns: 2_000n, logical: 0n },
      { physical_ns: 2_000n, logical: 1n },
    ]);
    const gt = (a: { physical_ns: bigint; logical: bigint }, b: { physical_ns: bigint; logical: bigint }) =>
      a.physical_ns > b.physical_ns || (a.physical_ns === b.physical_ns && a.logical > b.logical);
    await assertProperty(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: 1n << 50n }), fc.bigInt({ min: 0n, max: 1000n }), fc.array(fc.bigInt({ min: 0n, max: 1n << 51n }), { minLength: 1, maxLength: 12 }), async (p, l, anchors) => {
        const seed = { physical_ns: p, logical: l };
        let last = seed;
        for (const s of await implementation().senseClock(anchors, seed)) {
          expect(gt(s, last)).toBe(true);
          last = s;
        }
      }),
      fcParams(25),
    );
  });
});

/** A probe's readings: a steady baseline with a spike, then quiet, then another spike. */
const STREAM = [100_000n, 100_000n, 100_000n, 100_000n, 100_000n, 100_000n, 100_000n, 100_000n, 900_000n, 100_000n, 150_000n, 120_000n];
const BUSY = { engagement_ppm: 900_000n, active_modality: 'visual', surface_modality: 'visual' };
const IDLE = { engagement_ppm: 0n, active_modality: 'audio', surface_modality: 'visual' };

describe('sense §5 the attention budget (C3)', () => {
  clauseIt(['sense/5#decide-against-prior-baseline'], 'a single large spike fires: it is judged against the baseline before it', async () => {
    // against the prior baseline (mean ≈ 0.1, no variance) the spike clears k-sigma; had the baseline taken the spike
    // in first (mean 0.2, variance ≈ 0.07), it would not: 0.7² < 3² · 0.07
    expect(await implementation().senseDetect('salience', STREAM)).toEqual([{ index: 8n, score: 900_000n }]);
    expect(await implementation().senseDetect('novelty', [...STREAM.slice(0, 8), 400_000n])).toEqual([{ index: 8n, score: 400_000n }]);
  });

  clauseIt(['sense/5#decision-deterministic'], 'highlights fire above the floor only, and never twice within the debounce', async () => {
    // below the absolute floor nothing fires, however anomalous
    expect(await implementation().senseDetect('salience', [0n, 0n, 0n, HIGHLIGHT_FLOOR_PPM - 1n])).toEqual([]);
    expect(await implementation().senseDetect('salience', [0n, 0n, 0n, HIGHLIGHT_FLOOR_PPM])).toEqual([{ index: 3n, score: HIGHLIGHT_FLOOR_PPM }]);
    // a fire, then the debounce (3 readings) holds the next anomaly back
    expect((await implementation().senseDetect('salience', [900_000n, 0n, 0n, 1_000_000n])).map((h) => h.index)).toEqual([0n]);
    expect((await implementation().senseDetect('salience', [900_000n, 0n, 0n, 0n, 1_000_000n])).map((h) => h.index)).toEqual([0n, 4n]);
  });

  clauseIt(['sense/5#surface-condition'], 'a highlight surfaces only when value > cost + margin and the budget can pay', async () => {
    // idle user: cost 0, so the margin alone decides the value test
    const at = async (score: bigint, budget: bigint) => (await implementation().senseGate([{ probe: 'salience', score }], IDLE, budget, 10n))[0]!;
    expect((await at(SURFACE_MARGIN_PPM, 100n)).outcome).toBe('hold:value');
    expect(await at(SURFACE_MARGIN_PPM + 1n, 100n)).toEqual({ value: SURFACE_MARGIN_PPM + 1n, cost: 0n, outcome: 'surface', charged_uj: 10n, budget_uj: 90n });
    expect((await at(SURFACE_MARGIN_PPM + 1n, 10n)).outcome).toBe('surface');
    expect((await at(SURFACE_MARGIN_PPM + 1n, 9n)).outcome).toBe('hold:budget');
    // busy user: displacement ½ · 0.9 plus interference on the same modality; uncertainty's value is halved
    const busy = await implementation().senseGate([{ probe: 'uncertainty', score: 1_000_000n }, { probe: 'salience', score: 1_000_000n }], BUSY, 100n, 10n);
    expect(busy.map((d) => [d.value, d.cost, d.outcome])).toEqual([
      [500_000n, 450_000n + INTERFERENCE_PPM, 'hold:value'],
      [1_000_000n, 450_000n + INTERFERENCE_PPM, 'surface'],
    ]);
  });

  clauseIt(['sense/5#value-test-first'], 'a highlight not worth an interruption is hold:value whether or not the budget could pay', async () => {
    await assertProperty(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: SURFACE_MARGIN_PPM }), fc.bigInt({ min: 0n, max: 100n }), fc.bigInt({ min: 1n, max: 100n }), async (score, budget, price) => {
        const [d] = await implementation().senseGate([{ probe: 'novelty', score }], IDLE, budget, price);
        expect(d).toEqual({ value: score, cost: 0n, outcome: 'hold:value', charged_uj: 0n, budget_uj: budget });
      }),
      fcParams(20),
    );
    // the budget empty: still hold:value, never hold:budget, for an unworthy highlight
    expect((await implementation().senseGate([{ probe: 'salience', score: 10n }], IDLE, 0n, 5n))[0]!.outcome).toBe('hold:value');
  });

  clauseIt(['sense/5#surfacing-debits-hold-free'], 'surfacing debits the budget by its price; a hold spends nothing', async () => {
    const hs = [
      { probe: 'salience', score: 1_000_000n },
      { probe: 'uncertainty', score: 900_000n },
      { probe: 'novelty', score: 1_000_000n },
      { probe: 'salience', score: 1_000_000n },
    ];
    const ds = await implementation().senseGate(hs, BUSY, 130n, 60n);
    expect(ds.map((d) => [d.outcome, d.charged_uj, d.budget_uj])).toEqual([
      ['surface', 60n, 70n],
      ['hold:value', 0n, 70n],
      ['surface', 60n, 10n],
      ['hold:budget', 0n, 10n],
    ]);
  });

  clauseIt(['sense/5#decision-deterministic', 'sense/5#value-test-first', 'sense/5#surfacing-debits-hold-free'], 'a fixed signal stream yields its highlights and, for a busy user on a small budget, every outcome with the budget after each', async () => {
    const streams: Record<string, bigint[]> = {
      salience: [100_000n, 100_000n, 100_000n, 100_000n, 950_000n, 100_000n, 100_000n, 100_000n, 100_000n, 100_000n],
      uncertainty: [50_000n, 50_000n, 50_000n, 50_000n, 50_000n, 50_000n, 900_000n, 50_000n, 50_000n, 50_000n],
      novelty: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 1_000_000n, 0n],
    };
    const hs: Array<{ probe: string; score: bigint; index: bigint }> = [];
    for (const [probe, xs] of Object.entries(streams)) for (const h of await implementation().senseDetect(probe, xs)) hs.push({ probe, ...h });
    hs.sort((a, b) => Number(a.index - b.index));
    expect(hs).toEqual([
      { probe: 'salience', index: 4n, score: 950_000n },
      { probe: 'uncertainty', index: 6n, score: 900_000n },
      { probe: 'novelty', index: 8n, score: 1_000_000n },
    ]);
    const run = () => implementation().senseGate(hs, BUSY, 50n, 40n);
    const ds = await run();
    expect(ds.map((d) => [d.outcome, d.budget_uj])).toEqual([
      ['surface', 10n],
      ['hold:value', 10n],
      ['hold:budget', 10n],
    ]);
    expect(await run()).toEqual(ds);
  });

  clauseIt(['sense/5#decision-deterministic'], 'a malformed signal is refused', async () => {
    await expectCode(implementation().senseDetect('anger', [1n]), 'ERR_SENSE_SIGNAL_MALFORMED');
    await expectCode(implementation().senseDetect('salience', [SCALE_PPM + 1n]), 'ERR_SENSE_SIGNAL_MALFORMED');
    await expectCode(implementation().senseGate([{ probe: 'salience', score: 1n }], { ...IDLE, engagement_ppm: SCALE_PPM + 1n }, 1n, 1n), 'ERR_SENSE_SIGNAL_MALFORMED');
  });
});

describe('sense §6 the synthesis cascade (C4)', () => {
  const log = SESSION.map(asInput);

  clauseIt(['sense/6#deterministic-recall-first', 'sense/6#honest-energy-figure'], 'a recall query is answered at Tier 0 from the spans, with no model call and an honest zero estimate', async () => {
    const ids = SESSION.map(expectedEventId);
    const last = await implementation().senseAsk(log, 'what was the last command I ran?', 6n);
    expect(last).toMatchObject({ tier: 'tier0', model_calls: 0n, answer: 'git status', spans: [ids[5]] });
    // sense §6: "a deterministic answer is an honest zero estimate, never a measurement"
    expect(last.energy).toEqual({ estimated_uj: 0n, provenance: 'Estimator' });
    const files = await implementation().senseAsk(log, 'which files changed recently?', 7n);
    expect(files).toMatchObject({ tier: 'tier0', model_calls: 0n, answer: 'modified README.md\nmodified src/main.ts', spans: [ids[4], ids[0]] });
    // the answer comes from the envelope's spans only: with 6 slots the recency fill (one per class, newest class first,
    // then a second round) leaves the older file change out
    expect(await implementation().senseAsk(log, 'which files changed recently?', 6n)).toMatchObject({ tier: 'tier0', answer: 'modified README.md', spans: [ids[4]] });
    const surfaced = await implementation().senseAsk(log, 'what was surfaced?', 6n);
    expect(surfaced).toMatchObject({ tier: 'tier0', model_calls: 0n, answer: 'surfaced: build failing' });
    // the envelope is content-addressed: the same log and query build the same envelope
    expect((await implementation().senseAsk([...log].reverse(), 'what was the last command I ran?', 6n)).envelope_id).toBe(last.envelope_id);
  });

  clauseIt(['sense/6#escalate-last-resort'], 'an open-ended query escalates to the fallback; so does a recall query the spans cannot back', async () => {
    const open = await implementation().senseAsk(log, 'why is the build failing and what should I try?', 6n);
    expect(open.tier).toBe('fallback');
    expect(open.model_calls).toBe(1n);
    // no shell span on the log: query-side evidence alone does not answer
    const noShell = await implementation().senseAsk(SESSION.filter((e) => e.source !== 'shell').map(asInput), 'what was the last command I ran?', 6n);
    expect(noShell).toMatchObject({ tier: 'fallback', model_calls: 1n });
  });
});
