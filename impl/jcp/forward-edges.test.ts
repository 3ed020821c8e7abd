// Edge tests of jcp §4.10 forwarding (impl/jcp/forward.ts): each malformed forwarder option or request is refused with
// ERR_BAD_ARGUMENT and a message naming what is wrong, before anything is decided; a request without fields forwards
// only the arguments; a price (jcp §4.8) reaches the gate; absent optional members (the price, the gated label when
// the arguments' label was not computed) stay absent in the decision request and the result.
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { toHex } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import type { DecisionRequest } from './decide.ts';
import { createEnforcementPoint, type EnforcementPoint } from './enforcement-point.ts';
import { createForwarder, type ForwardField, type ForwardRequest, type Route } from './forward.ts';
import { grantId, mintGrant } from './grant.ts';
import type { Funds, Label, SignedGrant } from './types.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const steward = lazyKey('steward');
const BOTTOM: Label = { integrity: 'principal', origins: [], readers: 'all' };
const CLEAN_IS_NOT_A_LEVEL = { integrity: 'clean', origins: [], readers: 'all' } as unknown as Label;

function grant(nonce: number, budget_funds?: Funds): SignedGrant {
  return mintGrant(alice, {
    subject: bob.did,
    resource: TOOL_RESOURCE,
    actions: ['call'],
    budget_uj: 1000n,
    nonce: new Uint8Array(16).fill(nonce),
    ...(budget_funds ? { budget_funds } : {}),
  });
}
const route = (g: SignedGrant): Route => ({ kind: 'tool-call', trust: 'control', grant_id: grantId(g.grant), action: 'call', resource: TOOL_RESOURCE });
const request = (g: SignedGrant, over: Partial<ForwardRequest> = {}): ForwardRequest => ({
  route: route(g),
  chain: [g],
  caller: bob.did,
  cost: { uj: 10n, provenance: 'Estimator' },
  now_s: 1n,
  arguments: { q: 'weather' },
  arguments_label: BOTTOM,
  ...over,
});

/** A real enforcement point that also records every decision request it is asked (to see what the forwarder sends). */
function recordingPoint(): { point: EnforcementPoint; asked: DecisionRequest[] } {
  const real = createEnforcementPoint({ steward });
  const asked: DecisionRequest[] = [];
  // every member of the real point, with decide recording its request first
  const point: EnforcementPoint = Object.freeze({
    ...real,
    decide: (req: DecisionRequest) => {
      asked.push(req);
      return real.decide(req);
    },
  });
  return { point, asked };
}

describe('jcp §4.10 forwarder options', () => {
  it.each<[string, () => unknown]>([
    ['no options at all', () => undefined],
    ['options without a point', () => ({})],
    ['a point without decide', () => ({ point: {} })],
  ])('refuses %s: a forwarder needs an enforcement point', (_, opts) => {
    const e = thrown(() => createForwarder(opts() as never));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: a forwarder needs an enforcement point');
  });

  it('refuses an omit that is not an array (a bare name is not a list of names)', () => {
    const point = createEnforcementPoint({ steward });
    for (const omit of ['version', {}]) {
      const e = thrown(() => createForwarder({ point, omit: omit as never }));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: omit must be an array of fixed-machinery field names');
    }
  });

  it('refuses an open field declared as machinery, naming it and the fixed machinery of §4.10', () => {
    const point = createEnforcementPoint({ steward });
    const e = thrown(() => createForwarder({ point, omit: ['version', 'x-trace'] }));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe(
      `ERR_BAD_ARGUMENT: omit: "x-trace" is not the protocol's fixed machinery (capabilities, progress_token, version); an open field must be labelled (jcp §4.10)`,
    );
  });
});

describe('jcp §4.10 malformed forward requests: refused with a message, deciding nothing', () => {
  const g = lazy(() => grant(61));
  const refusal = (req: unknown): { code: string; message: string; asked: number } => {
    const { point, asked } = recordingPoint();
    const e = thrown(() => createForwarder({ point }).forward(req as ForwardRequest));
    return { code: e.code, message: e.message, asked: asked.length };
  };
  const refused = (message: string) => ({ code: 'ERR_BAD_ARGUMENT', message: `ERR_BAD_ARGUMENT: ${message}`, asked: 0 });

  it.each<[string, () => unknown]>([
    ['null', () => null],
    ['undefined', () => undefined],
    ['a number', () => 5],
  ])('a request that is %s is not an object', (_, req) => {
    expect(refusal(req())).toEqual(refused('a forward request must be an object'));
  });

  it.each<[string, () => unknown]>([
    ['null', () => null],
    ['absent', () => undefined],
    ['text', () => 'call'],
  ])('a route that is %s is not a frame (jcp §6)', (_, r) => {
    expect(refusal(request(g, { route: r() as Route }))).toEqual(refused('route must be a frame without payload_hash (jcp §6)'));
  });

  it('a route carrying its own payload_hash: the forwarder computes it (§8 payload_hash binds what is forwarded)', () => {
    const r = { ...route(g), payload_hash: toHex(blake3(new Uint8Array([1]))) } as Route;
    expect(refusal(request(g, { route: r }))).toEqual(refused('route must not carry a payload_hash: the forwarder computes it from what it forwards'));
  });

  it('a request without arguments', () => {
    expect(refusal(request(g, { arguments: undefined as never }))).toEqual(refused('a forward request carries arguments'));
  });

  it('a malformed arguments label, named by its path as on the wire', () => {
    expect(refusal(request(g, { arguments_label: CLEAN_IS_NOT_A_LEVEL }))).toEqual(
      refused('arguments_label: ERR_BAD_ARGUMENT: $arguments_label.integrity: integrity must be principal or untrusted'),
    );
  });

  it('an arguments label that is not a label object at all', () => {
    expect(refusal(request(g, { arguments_label: null as never }))).toEqual(refused('arguments_label must be a label {integrity, origins, readers} (jcp §4.10)'));
  });

  it('fields that are not an array', () => {
    expect(refusal(request(g, { fields: {} as never }))).toEqual(refused('fields must be an array of {name, value, label?}'));
  });

  const ok: ForwardField = { name: 'x-ok', value: 1, label: BOTTOM };
  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['text', 'x-trace'],
    ['a function, even one with a name and a value', Object.assign(function xTrace() {}, { value: 1 })],
    ['a field whose name is a number', { name: 5, value: 1, label: BOTTOM }],
    ['a field whose name is absent', { value: 1, label: BOTTOM }],
    ['a field whose name is empty', { name: '', value: 1, label: BOTTOM }],
  ])('a field that is %s, named by its index', (_, bad) => {
    expect(refusal(request(g, { fields: [ok, bad as ForwardField] }))).toEqual(refused('fields[1] must be {name: non-empty text, value, label?}'));
  });

  it('a field named twice', () => {
    expect(refusal(request(g, { fields: [ok, { name: 'x-ok', value: 2, label: BOTTOM }] }))).toEqual(refused('fields[1]: field "x-ok" appears twice'));
  });

  it('a field without a value', () => {
    expect(refusal(request(g, { fields: [{ name: 'x-a', label: BOTTOM } as never] }))).toEqual(refused('fields[0] (x-a) has no value'));
  });

  it('a malformed field label, named by its path as on the wire', () => {
    expect(refusal(request(g, { fields: [ok, { name: 'x-a', value: 1, label: CLEAN_IS_NOT_A_LEVEL }] }))).toEqual(
      refused('fields[1].label: ERR_BAD_ARGUMENT: $fields[1].label.integrity: integrity must be principal or untrusted'),
    );
  });

  it('a field label that is not a label object at all', () => {
    expect(refusal(request(g, { fields: [{ name: 'x-a', value: 1, label: null as never }] }))).toEqual(
      refused('fields[0].label must be a label {integrity, origins, readers} (jcp §4.10)'),
    );
  });
});

describe('jcp §4.10 forwarding: what reaches the gate and the result', () => {
  it('a request without fields forwards the arguments alone, dropping and omitting nothing', () => {
    const g = grant(62);
    const { point } = recordingPoint();
    const r = createForwarder({ point, omit: ['version'] }).forward(request(g));
    expect(r.decision.verdict).toBe('allow');
    const want = encodeCanonical({ action: 'call', arguments: { q: 'weather' } });
    expect(toHex(r.forwarded!)).toBe(toHex(want));
    expect(r.payload_hash).toBe(toHex(blake3(want)));
    expect(r.dropped).toEqual([]);
    expect(r.omitted).toEqual([]);
    expect(r.label).toEqual(BOTTOM);
  });

  it('jcp §4.8: the price reaches the gate: exactly the money ceiling allows and debits it, one minor unit past denies', () => {
    const g = grant(63, { currency: 'USD', minor: 5n });
    const { point, asked } = recordingPoint();
    const fwd = createForwarder({ point });
    const over = fwd.forward(request(g, { cost_funds: { currency: 'USD', minor: 6n } }));
    expect([over.decision.verdict, over.decision.deny_reason]).toEqual(['deny', 'funds-exceeded']);
    expect(over.forwarded).toBeUndefined();
    expect(point.spentFunds(grantId(g.grant))).toBe(0n);
    const at = fwd.forward(request(g, { cost_funds: { currency: 'USD', minor: 5n } }));
    expect(at.decision.verdict).toBe('allow');
    expect(point.spentFunds(grantId(g.grant))).toBe(5n);
    expect(asked.map((q) => q.cost_funds)).toEqual([
      { currency: 'USD', minor: 6n },
      { currency: 'USD', minor: 5n },
    ]);
  });

  it('an unpriced request with uncomputed provenance asks the gate with neither a price nor a label, and returns no label', () => {
    const g = grant(64);
    const { point, asked } = recordingPoint();
    const { arguments_label: _, ...unlabelled } = request(g, { fields: [{ name: 'x-a', value: 1, label: BOTTOM }] });
    const r = createForwarder({ point }).forward(unlabelled);
    expect(r.decision.verdict).toBe('allow'); // no flow caveat on the grant: nothing to fail closed against
    expect(asked).toHaveLength(1);
    // absent optional members stay absent (not present as undefined): §4.10 "absent = not computed"
    expect(Object.keys(asked[0]!).sort()).toEqual(['caller', 'chain', 'cost', 'frame', 'now_s']);
    expect(Object.keys(r).sort()).toEqual(['decision', 'dropped', 'forwarded', 'omitted', 'payload_hash']);
    expect(asked[0]!.frame.payload_hash).toBe(r.payload_hash);
  });

  it('a labelled request asks the gate with the joined label, and returns it', () => {
    const g = grant(65);
    const { point, asked } = recordingPoint();
    const r = createForwarder({ point }).forward(request(g));
    expect(Object.keys(asked[0]!).sort()).toEqual(['caller', 'chain', 'cost', 'frame', 'label', 'now_s']);
    expect(asked[0]!.label).toEqual(BOTTOM);
    expect(Object.keys(r).sort()).toEqual(['decision', 'dropped', 'forwarded', 'label', 'omitted', 'payload_hash']);
  });
});
