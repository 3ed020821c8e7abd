// The in-memory gate's store of decided responses (impl/wire/response-memo.ts, jcp §11 "MUST remember every request
// it decided while that request's stamp is inside the window, together with its response"): it answers exactly as a
// map of (key → response, decided_s) pruned entry by entry would, whatever the sizes, the seconds and their order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createResponseMemo } from './response-memo.ts';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill & 0xff);

describe('the memo of decided responses (jcp §11 a request decided once)', () => {
  it('keeps its own copy of each response, across slabs, a response larger than a slab included', () => {
    const memo = createResponseMemo();
    const sizes = [1, 4095, 4096, 2, 9000, 0, 70_000, 1 << 20, (1 << 20) + 3, 17];
    const sources = sizes.map((n, i) => bytes(n, i + 1));
    sources.forEach((r, i) => memo.set(`k${i}`, r, 100n));
    for (const r of sources) r.fill(0xee);
    expect(memo.size).toBe(sizes.length);
    sizes.forEach((n, i) => expect(memo.get(`k${i}`)).toEqual(bytes(n, i + 1)));
    expect(memo.get('absent')).toBeUndefined();
  });

  it('forgets a response once its second plus keep_s is before now, and not before', () => {
    const memo = createResponseMemo();
    memo.set('a', bytes(3, 1), 10n);
    memo.set('b', bytes(3, 2), 11n);
    memo.prune(20n, 10n); // 10 + 10 is not before 20
    expect([memo.get('a'), memo.get('b')]).toEqual([bytes(3, 1), bytes(3, 2)]);
    memo.prune(21n, 10n);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('b')).toEqual(bytes(3, 2));
    expect(memo.size).toBe(1);
    // the second pruned away can be written again, and a clock that went back is kept by its own second
    memo.set('c', bytes(2, 3), 10n);
    memo.set('d', bytes(2, 4), 5n);
    memo.prune(22n, 10n);
    expect([memo.get('b'), memo.get('c'), memo.get('d')]).toEqual([undefined, undefined, undefined]);
    expect(memo.size).toBe(0);
    // the second last written to, once pruned, starts again as a new one and is pruned again in its turn
    memo.set('e', bytes(2, 5), 30n);
    memo.prune(50n, 10n);
    memo.set('f', bytes(2, 6), 30n);
    expect(memo.get('f')).toEqual(bytes(2, 6));
    memo.prune(51n, 10n);
    expect([memo.get('e'), memo.get('f'), memo.size]).toEqual([undefined, undefined, 0]);
  });

  it('answers as a map pruned entry by entry would, over random writes, seconds and prunes', () => {
    type Op = { set: [number, number, number] } | { prune: [number, number] };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ set: fc.tuple(fc.nat(60), fc.nat(5000), fc.integer({ min: 0, max: 40 })) }) },
      { weight: 1, arbitrary: fc.record({ prune: fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 10 })) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const memo = createResponseMemo();
        const model = new Map<string, { r: Uint8Array; s: bigint }>();
        let last: bigint | undefined;
        ops.forEach((o, i) => {
          if ('set' in o) {
            const [k, n, s] = o.set;
            const key = `k${k}`;
            if (model.has(key)) return; // the gate writes a key only once
            const r = bytes(n, i);
            memo.set(key, r, BigInt(s));
            model.set(key, { r: r.slice(), s: BigInt(s) });
          } else {
            const [now, keep] = o.prune.map(BigInt) as [bigint, bigint];
            memo.prune(now, keep);
            // a prune at the second of the last one does nothing (the gate prunes at every request)
            if (now !== last) for (const [k, e] of model) if (e.s + keep < now) model.delete(k);
            last = now;
          }
        });
        expect(memo.size).toBe(model.size);
        for (let k = 0; k <= 60; k++) expect(memo.get(`k${k}`)).toEqual(model.get(`k${k}`)?.r);
      }),
      { seed: 0x5e11, numRuns: 300 },
    );
  });
});
