// Conformance: jcp §11 the jcp/1 wire binding (C8) and the caller-signed wire of C13, against a live endpoint over a
// real socket: JCP_ENDPOINT (certify --endpoint), or else the reference endpoint started in process on loopback TCP
// and on a Unix socket (harness/drivers/wire.ts). Grants are minted by the oracle from keys the harness holds; every
// decision is the endpoint's, read from its WireResponse and its receipt, verified under the endpoint's steward.
//
// Readings taken where §11 leaves a shape open (the suite fixes them once, in impl/wire/WIRE.md): the signature covers
// the canonical WireRequest map less its `signature` entry; a message refused before any decision (over the cap,
// non-canonical, not a WireRequest) is answered by a refusal {error, message}, or by closing the connection — either
// is a rejection, and what is checked is that no decision was taken and nothing was debited.
import { afterAll, describe, expect } from 'vitest';
import { clauseIt, contract, RunLacks } from '../clause.ts';
import {
  closeWireTarget,
  connectWire,
  onConnection,
  encodeWireRequest,
  frameMessage,
  signWireRequest,
  wireSigningBytes,
  wireTarget,
  type UnsignedWireRequest,
  type WireClient,
  type WireReply,
  type WireResponse,
  type WireTarget,
} from '../drivers/wire.ts';
import { bob, carol, mallory, nonce } from '../fixtures.ts';
import { UnimplementedError } from '../implementation.ts';
import {
  attenuate,
  concatBytes,
  contentId,
  dealerShares,
  decodeCanonical,
  deriveSeed,
  defaultEd25519,
  encodeCanonical,
  grantId,
  mintGrant,
  thresholdSign,
  toHex,
  verifyReceipt,
  type CborMap,
  type ReceiptCore,
  type SignedGrant,
} from '../oracle.ts';

afterAll(() => closeWireTarget());

const ACTION = 'call';

/** A grant from the endpoint's honoured issuer to bob over a resource and nonce named by `label` (fresh per run). */
function grantFor(t: WireTarget, label: string, budget_uj: bigint, expiry = 0n): SignedGrant {
  const l = t.label(`wire:${label}`);
  return mintGrant(t.issuer, { subject: bob.did, resource: contentId({ resource: l }), actions: [ACTION], budget_uj, expiry, nonce: nonce(l) });
}

/** A control tool-call of `sg` by bob, stamped with the endpoint's clock, with overrides. */
function request(t: WireTarget, sg: SignedGrant, over: Partial<UnsignedWireRequest> = {}): UnsignedWireRequest {
  return {
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: ACTION, resource: sg.grant.capability.resource, payload_hash: contentId({ payload: 'wire args' }) },
    chain: [sg],
    caller: bob.did,
    cost: { uj: 10n, provenance: 'Estimator' },
    now: t.now_s(),
    ...over,
  };
}

/** The response of a reply that must carry a decision; its receipt verified under the endpoint's steward and agreeing with it. */
function decided(t: WireTarget, r: WireReply): { response: WireResponse; core: ReceiptCore } {
  if (r.kind !== 'response') throw new Error(`expected a decision, the endpoint refused: ${r.refusal.error} ${r.refusal.message}`);
  const { core } = verifyReceipt(r.response.receipt, { steward: t.steward });
  expect(core.verdict).toBe(r.response.decision.verdict);
  expect(core.deny_reason).toBe(r.response.decision.deny_reason);
  return { response: r.response, core };
}

async function ask(c: WireClient, body: Uint8Array): Promise<WireReply> {
  return c.sendBody(body);
}

/** The reply to raw bytes, or 'closed' when the endpoint closed the connection instead of answering; silence fails. */
async function rejection(c: WireClient, bytes: Uint8Array, ms = 4000): Promise<WireReply | 'closed'> {
  let timer: NodeJS.Timeout | undefined;
  // the silence error is told apart by identity — its message says "closed", and matching the
  // message alone once read silence as a close, so an endpoint that kept buffering a declared-oversize body passed
  const silent = new Error(`the endpoint neither answered nor closed the connection within ${ms} ms: the message was not rejected`);
  const silence = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(silent), ms);
  });
  try {
    return await Promise.race([c.sendRaw(bytes), silence]);
  } catch (e) {
    if (e === silent) throw e;
    if ((e as { code?: string }).code === 'ERR_WIRE_CLOSED' || /closed|ECONNRESET|EPIPE/.test(String(e))) return 'closed';
    throw e;
  } finally {
    clearTimeout(timer);
  }
}


/** Signs and sends a request on `sg` by bob costing `uj`, its payload named by `probe` (so each is a new request). */
async function spend(t: WireTarget, c: WireClient, sg: SignedGrant, uj: bigint, probe: string): Promise<{ response: WireResponse; core: ReceiptCore }> {
  return decided(t, await ask(c, encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj, provenance: 'Estimator' }, frame: { ...request(t, sg).frame, payload_hash: contentId({ payload: probe }) } }), bob))));
}

/** After a request that must have debited nothing (or `debited` µJ), a fresh request shows the remaining budget. */
async function expectRemaining(t: WireTarget, c: WireClient, sg: SignedGrant, debited: bigint, probe: string): Promise<void> {
  const r = await spend(t, c, sg, 1n, probe);
  expect(r.core.verdict).toBe('allow');
  expect(r.core.budget_remaining_uj).toBe(sg.grant.budget_uj - debited - 1n);
  if (t.spent) expect(t.spent(grantId(sg.grant))).toBe(debited + 1n);
}

/**
 * A signed request whose body is exactly `size` bytes: its grant carries a second action of filler text, lengthened
 * until the body has the size (the text's CBOR head grows at 24, 256 and 65,536 bytes, so a few rounds settle it).
 */
function requestOfSize(t: WireTarget, label: string, size: number): Uint8Array {
  let filler = 0;
  for (let round = 0; round < 8; round++) {
    const l = t.label(`wire:${label}`);
    const sg = mintGrant(t.issuer, { subject: bob.did, resource: contentId({ resource: l }), actions: [ACTION, 'x'.repeat(filler)], budget_uj: 1000n, nonce: nonce(l) });
    const body = encodeWireRequest(signWireRequest(request(t, sg), bob));
    if (body.length === size) return body;
    filler = Math.max(0, filler + size - body.length);
  }
  throw new Error(`no request of exactly ${size} bytes: the filler did not settle`);
}

/**
 * How far the harness's clock is ahead of the endpoint's, in whole seconds, as its decisions show it: a grant expiring
 * d seconds from the harness's now is denied expired exactly when the endpoint's clock is d or more ahead (jcp §7
 * leaves the boundary open: a second either way, which the callers' margins cover). The search is over d, an offset,
 * not over an absolute time, so the seconds the search itself takes do not enter the answer.
 */
async function clockSkew(t: WireTarget, c: WireClient, span = 8n): Promise<bigint> {
  let probes = 0;
  const expiredAt = async (d: bigint): Promise<boolean> => {
    const sg = grantFor(t, `clock offset ${d} probe ${probes++}`, 1000n, t.now_s() + d);
    const r = decided(t, await ask(c, encodeWireRequest(signWireRequest(request(t, sg), bob))));
    return r.core.verdict === 'deny' && r.core.deny_reason === 'expired';
  };
  let lo = -span; // expired: the endpoint is at least lo ahead
  let hi = span; // not expired: less than hi ahead
  expect(await expiredAt(lo), `the endpoint's clock is more than ${span} s behind the harness's`).toBe(true);
  expect(await expiredAt(hi), `the endpoint's clock is more than ${span} s ahead of the harness's`).toBe(false);
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (await expiredAt(mid)) lo = mid;
    else hi = mid;
  }
  return -lo;
}

describe('jcp §11 the jcp/1 wire binding, over a live socket', () => {
  clauseIt(['jcp/9#c8-round-trip'], 'a request round-trips the framing canonically on every address, and the endpoint decides and seals it', async () => {
    const t = await wireTarget();
    for (const [i, url] of t.urls.entries()) {
      const sg = grantFor(t, `round-trip ${i}`, 1000n);
      const c = await connectWire(url);
      try {
        const req = signWireRequest(request(t, sg, { cost: { uj: 25n, provenance: 'HwShunt' } }), bob);
        const raw = await c.sendRaw(frameMessage(encodeWireRequest(req)));
        const { response, core } = decided(t, raw);
        // the reply is itself in the one canonical form: re-encoding what was decoded gives the same bytes
        const body = encodeCanonical({ decision: { verdict: response.decision.verdict, deny_reason: response.decision.deny_reason }, receipt: response.receipt });
        expect(toHex(encodeCanonical(decodeCanonical(body)))).toBe(toHex(body));
        expect(response.decision).toEqual({ verdict: 'allow' });
        expect(core).toMatchObject({ grant_id: grantId(sg.grant), subject: bob.did, action: ACTION, resource: sg.grant.capability.resource, payload_hash: req.frame.payload_hash, cost_uj: 25n, energy_provenance: 'HwShunt', budget_remaining_uj: 975n, steward: t.steward });
      } finally {
        await c.close();
      }
    }
  });

  clauseIt(['jcp/11#reject-non-canonical'], 'a non-canonical body is rejected, never decided, and debits nothing', async () => {
    const t = await wireTarget();
    const sg = grantFor(t, 'non-canonical', 1000n);
    const body = encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj: 100n, provenance: 'Estimator' } }), bob));
    // three departures from the one wire form of the same value: a non-shortest map head, trailing bytes, unsorted keys
    const head = body[0]!;
    expect(head & 0xe0).toBe(0xa0);
    const nonShortest = concatBytes(new Uint8Array([0xb8, head & 0x1f]), body.subarray(1));
    const trailing = concatBytes(body, new Uint8Array([0x00]));
    const m = decodeCanonical(body) as CborMap;
    const entries = [...m.entries()].map(([k, v]) => concatBytes(encodeCanonical(k), encodeCanonical(v)));
    const unsorted = concatBytes(new Uint8Array([head]), ...entries.reverse());
    for (const bad of [nonShortest, trailing, unsorted]) {
      await onConnection(t, async (c) => {
        const r = await rejection(c, frameMessage(bad));
        if (r !== 'closed') {
          expect(r.kind).toBe('refusal');
          if (r.kind === 'refusal') contract(r.refusal.error === 'ERR_WIRE_NON_CANONICAL', `a non-canonical body refused with ${r.refusal.error}; the suite's code (impl/wire/WIRE.md) is ERR_WIRE_NON_CANONICAL`);
        }
      });
    }
    await onConnection(t, async (c) => {
      await expectRemaining(t, c, sg, 0n, 'after non-canonical');
    });
  });

  clauseIt(['jcp/11#reject-oversize'], 'a message declared longer than the cap is rejected before its body, never decided', async () => {
    const t = await wireTarget();
    await onConnection(t, async (c) => {
      const head = new Uint8Array(4);
      new DataView(head.buffer).setUint32(0, t.cap_bytes + 1, false);
      // only the length is sent: a receiver that waited for the body before judging its size would never answer
      const r = await rejection(c, head);
      if (r !== 'closed') {
        expect(r.kind).toBe('refusal');
        if (r.kind === 'refusal') contract(r.refusal.error === 'ERR_WIRE_OVERSIZE', `an oversized body refused with ${r.refusal.error}; the suite's code (impl/wire/WIRE.md) is ERR_WIRE_OVERSIZE`);
      }
    });
  });

  clauseIt(['jcp/11#reject-oversize'], "the told cap is the endpoint's: a request of exactly the cap is decided, one byte more is rejected", async () => {
    const t = await wireTarget();
    const atCap = requestOfSize(t, 'at the cap', t.cap_bytes);
    await onConnection(t, async (c) => {
      const r = await rejection(c, frameMessage(atCap, Number.MAX_SAFE_INTEGER), 30_000);
      const why = r === 'closed' ? 'the connection was closed' : r.kind === 'refusal' ? `refused ${r.refusal.error}` : 'decided';
      expect(why, `a request of exactly the told cap (${t.cap_bytes} bytes) was not decided: the endpoint's cap is smaller than it was told`).toBe('decided');
      const d = decided(t, r as WireReply);
      expect(d.core.verdict).toBe('allow');
    });
    const over = requestOfSize(t, 'past the cap', t.cap_bytes + 1);
    await onConnection(t, async (c2) => {
      const r = await rejection(c2, frameMessage(over, Number.MAX_SAFE_INTEGER), 30_000);
      if (r !== 'closed') expect(r.kind, `a request one byte over the told cap (${t.cap_bytes} bytes) was decided: the endpoint's cap is larger than it was told`).toBe('refusal');
    });
  });

  clauseIt(['jcp/11#verify-caller-signature'], 'an impersonated caller is denied bad-signature and sealed; a signed field changed after signing too; nothing is debited', async () => {
    const t = await wireTarget();
    const sg = grantFor(t, 'impersonation', 1000n);
    const c = await connectWire(t.urls[t.urls.length - 1]!);
    try {
      // mallory signs a request naming bob as caller
      const unsigned = request(t, sg, { cost: { uj: 100n, provenance: 'Estimator' } });
      const forged = { ...unsigned, signature: defaultEd25519().sign(mallory.seed, wireSigningBytes(unsigned)) };
      const f = decided(t, await ask(c, encodeWireRequest(forged)));
      expect(f.response.decision).toEqual({ verdict: 'deny', deny_reason: 'bad-signature' });
      expect(f.core).toMatchObject({ grant_id: grantId(sg.grant), subject: bob.did, verdict: 'deny', deny_reason: 'bad-signature', budget_remaining_uj: 1000n });
      // bob's own signature, then the cost lowered: the signature no longer covers the request
      const signed = signWireRequest(unsigned, bob);
      const altered = { ...signed, cost: { uj: 1n, provenance: 'Estimator' as const } };
      expect(decided(t, await ask(c, encodeWireRequest(altered))).response.decision).toEqual({ verdict: 'deny', deny_reason: 'bad-signature' });
      // mallory as herself is authenticated, and is not the grant's subject: the decision's own reason, not bad-signature
      const asMallory = signWireRequest({ ...unsigned, caller: mallory.did }, mallory);
      expect(decided(t, await ask(c, encodeWireRequest(asMallory))).response.decision).toEqual({ verdict: 'deny', deny_reason: 'wrong-subject' });
      await expectRemaining(t, c, sg, 0n, 'after impersonation');
    } finally {
      await c.close();
    }
  });

  clauseIt(
    ['jcp/11#verify-caller-signature', 'jcp/9#c13-threshold', 'jcp/2.2#shares-by-dealer-or-dkg'],
    'a 2-of-3 team is a caller like any other: two shares sign a request the endpoint allows; one share cannot sign; another team\'s aggregate is bad-signature',
    async () => {
      const t = await wireTarget();
      // the team and its shares are the harness's (a trusted dealer, jcp §2.2); the endpoint only ever sees the group key
      const team = dealerShares(2, 3, deriveSeed('wire:team'));
      const other = dealerShares(2, 3, deriveSeed('wire:other team'));
      const l = t.label('wire:team grant');
      const sg = mintGrant(t.issuer, { subject: team.did, resource: contentId({ resource: l }), actions: [ACTION], budget_uj: 1000n, expiry: 0n, nonce: nonce(l) });
      await onConnection(t, async (c) => {
        const send = async (u: UnsignedWireRequest, signature: Uint8Array) => decided(t, await ask(c, encodeWireRequest({ ...u, signature })));
        const u1 = request(t, sg, { caller: team.did, cost: { uj: 100n, provenance: 'Estimator' } });
        const two = thresholdSign(team, [team.shares[0]!, team.shares[1]!], wireSigningBytes(u1), deriveSeed(`wire:team nonces ${l}`)).signature;
        const allowed = await send(u1, two);
        expect(allowed.response.decision).toEqual({ verdict: 'allow' });
        expect(allowed.core).toMatchObject({ subject: team.did, budget_remaining_uj: 900n });
        // any two: shares 2 and 3 sign the next request
        const u2 = request(t, sg, { caller: team.did, cost: { uj: 50n, provenance: 'Estimator' }, frame: { ...u1.frame, payload_hash: contentId({ payload: 'team second' }) } });
        const twoMore = thresholdSign(team, [team.shares[1]!, team.shares[2]!], wireSigningBytes(u2), deriveSeed(`wire:team nonces 2 ${l}`)).signature;
        expect((await send(u2, twoMore)).core).toMatchObject({ verdict: 'allow', budget_remaining_uj: 850n });
        // one share cannot sign at all: k−1 shares determine nothing (the refusal is arithmetic, before any wire)
        const u3 = request(t, sg, { caller: team.did, frame: { ...u1.frame, payload_hash: contentId({ payload: 'team third' }) } });
        expect(() => thresholdSign(team, [team.shares[0]!], wireSigningBytes(u3), deriveSeed('wire:one share'))).toThrow(/ERR_THRESHOLD_TOO_FEW_SIGNERS/);
        // a valid aggregate of another team is no signature of this one
        const foreign = thresholdSign(other, [other.shares[0]!, other.shares[1]!], wireSigningBytes(u3), deriveSeed('wire:other nonces')).signature;
        expect((await send(u3, foreign)).core).toMatchObject({ verdict: 'deny', deny_reason: 'bad-signature', budget_remaining_uj: 850n });
      });
    },
  );

  clauseIt(['jcp/11#stale-request-denied'], 'a request stamped outside the freshness window, past or future, is denied stale-request and debits nothing', async () => {
    const t = await wireTarget();
    const sg = grantFor(t, 'stale', 1000n);
    await onConnection(t, async (c) => {
      const margin = 60n; // beyond the window by a minute: clock skew between harness and endpoint stays inside it
      for (const now of [t.now_s() - t.window_s - margin, t.now_s() + t.window_s + margin]) {
        const r = decided(t, await ask(c, encodeWireRequest(signWireRequest(request(t, sg, { now, cost: { uj: 100n, provenance: 'Estimator' } }), bob))));
        expect(r.response.decision).toEqual({ verdict: 'deny', deny_reason: 'stale-request' });
      }
      await expectRemaining(t, c, sg, 0n, 'after stale');
    });
  });

  clauseIt(['jcp/11#stale-request-denied'], "the told window is the endpoint's: a stamp 3 s inside it, past or future, is decided; 3 s past it is stale", async () => {
    const t = await wireTarget();
    await onConnection(t, async (c) => {
      // stamps set against the endpoint's own clock, found through its expiry decisions (the harness's may differ)
      const skew = await clockSkew(t, c);
      const theirs = () => t.now_s() - skew;
      // the endpoint's offset is known to within the open expiry boundary (1 s), and a second may turn between a
      // stamp and its decision on a loaded machine: 3 s from the edge holds both, and still tells a window 10 s off
      const EDGE = 3n;
      for (const [label, now, fresh] of [
        ['inside, past', () => theirs() - t.window_s + EDGE, true],
        ['inside, future', () => theirs() + t.window_s - EDGE, true],
        ['outside, past', () => theirs() - t.window_s - EDGE, false],
        ['outside, future', () => theirs() + t.window_s + EDGE, false],
      ] as const) {
        const sg = grantFor(t, `window edge ${label}`, 1000n);
        const r = decided(t, await ask(c, encodeWireRequest(signWireRequest(request(t, sg, { now: now() }), bob))));
        if (fresh) expect(r.response.decision, `a stamp ${EDGE} s inside the told window (${t.window_s} s, ${label}) was not decided as fresh: the endpoint's window is narrower than it was told`).toEqual({ verdict: 'allow' });
        else expect(r.response.decision, `a stamp ${EDGE} s past the told window (${t.window_s} s, ${label}) was not stale: the endpoint's window is wider than it was told`).toEqual({ verdict: 'deny', deny_reason: 'stale-request' });
      }
    });
  });

  clauseIt(['jcp/11#decide-at-own-clock', 'jcp/11#not-decided-at-named-time'], 'the endpoint decides at its own clock: a request stamped before its grant expired, arriving after, is denied expired', async () => {
    const t = await wireTarget();
    // expiry d seconds ago, stamp one second before it: inside the window, but a decision at the stamp would allow
    const d = t.window_s >= 4n ? (t.window_s / 2n < 30n ? t.window_s / 2n : 30n) : 1n;
    const expiry = t.now_s() - d;
    const sg = grantFor(t, 'own clock', 1000n, expiry);
    await onConnection(t, async (c) => {
      const r = decided(t, await ask(c, encodeWireRequest(signWireRequest(request(t, sg, { now: expiry - 1n }), bob))));
      expect(r.response.decision).toEqual({ verdict: 'deny', deny_reason: 'expired' });
      // the same grant with no expiry is allowed at the same stamp: the stamp alone was not the refusal
      const open = grantFor(t, 'own clock, no expiry', 1000n);
      expect(decided(t, await ask(c, encodeWireRequest(signWireRequest(request(t, open, { now: expiry - 1n }), bob)))).response.decision).toEqual({ verdict: 'allow' });
    });
  });

  clauseIt(
    ['jcp/9#c8-wire', 'jcp/11#remember-decided-requests', 'jcp/11#repeat-gets-same-response', 'jcp/11#repeat-not-redecided'],
    'a request presented again, on the same or another connection, gets its first response byte for byte and is not debited again',
    async () => {
      const t = await wireTarget();
      const sg = grantFor(t, 'replay', 1000n);
      const body = encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj: 100n, provenance: 'Estimator' } }), bob));
      const a = await connectWire(t.urls[0]!);
      const b = await connectWire(t.urls[t.urls.length - 1]!);
      try {
        const first = decided(t, await ask(a, body));
        expect(first.core).toMatchObject({ verdict: 'allow', budget_remaining_uj: 900n });
        for (const c of [a, b, a]) {
          const again = decided(t, await ask(c, body));
          expect(again.response.decision).toEqual(first.response.decision);
          expect(toHex(again.response.receipt)).toBe(toHex(first.response.receipt));
        }
        await expectRemaining(t, a, sg, 100n, 'after replay');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    },
  );

  clauseIt(['jcp/7#budget-exceeded', 'jcp/7#debit-on-allow'], 'over the wire the budget holds at its edge from both sides: one µJ over is denied and debits nothing, exactly the budget is allowed, then nothing more', async () => {
    const t = await wireTarget();
    const sg = grantFor(t, 'budget edge', 1000n);
    await onConnection(t, async (c) => {
      const over = await spend(t, c, sg, 1001n, 'one over the budget');
      expect(over.response.decision).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded' });
      expect(over.core.budget_remaining_uj, 'a denied call debits nothing').toBe(1000n);
      const exact = await spend(t, c, sg, 1000n, 'exactly the budget');
      expect(exact.response.decision, 'a cost of exactly the remaining budget (prior spend + cost = budget_uj) is allowed').toEqual({ verdict: 'allow' });
      expect(exact.core.budget_remaining_uj).toBe(0n);
      const more = await spend(t, c, sg, 1n, 'one more');
      expect(more.response.decision).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded' });
      expect(more.core.budget_remaining_uj).toBe(0n);
      if (t.spent) expect(t.spent(grantId(sg.grant))).toBe(1000n);
    });
  });

  clauseIt(['jcp/11#replay-before-new'], 'on restart each recorded request is replayed at the time it was decided: a link that has expired since still counts its spend', async () => {
    const t = await wireTarget();
    if (!t.restart) throw new RunLacks('--endpoint-restart', 'needs --endpoint-restart: the harness cannot restart an external endpoint without a command that does');
    const root = grantFor(t, 'replayed at its time', 1000n);
    // a delegation to carol that expires 3 s from the endpoint's now: decided inside its life, replayed after its end
    const expiry = t.now_s() + 3n;
    const child = attenuate(root, bob, { subject: carol.did, budget_uj: 500n, expiry, nonce: nonce(t.label('wire:replayed at its time, child')) });
    const byCarol = (): UnsignedWireRequest => ({
      ...request(t, child),
      frame: { ...request(t, child).frame, grant_id: grantId(child.grant) },
      chain: [root, child],
      caller: carol.did,
      cost: { uj: 100n, provenance: 'Estimator' },
    });
    await onConnection(t, async (c) => {
      expect(decided(t, await ask(c, encodeWireRequest(signWireRequest(byCarol(), carol)))).response.decision).toEqual({ verdict: 'allow' });
    });
    // past the child's expiry, then a restart: a replay at the endpoint's current time would find the link expired
    if (t.advance) t.advance(10n);
    else await new Promise((r) => setTimeout(r, Number(expiry - t.now_s() + 2n) * 1000));
    expect(t.now_s()).toBeGreaterThan(expiry);
    await t.restart();
    await onConnection(t, async (c2) => {
      // the root still carries the 100 µJ its expired link spent
      await expectRemaining(t, c2, root, 100n, 'after a restart past the link\'s expiry');
    });
  });

  clauseIt(['jcp/4.11#single-writer', 'jcp/4.11#fail-start-if-held', 'jcp/9#c26-one-writer'], 'a second instance on the running endpoint\'s record fails to start, and the first goes on deciding', async () => {
    const t = await wireTarget();
    if (!t.second) {
      if (t.inProcess) throw new Error('the in-process endpoint always offers a second instance');
      // an external endpoint (certify --endpoint) needs the operator's command; a testee's own endpoint has no such op
      throw process.env['JCP_ENDPOINT']
        ? new RunLacks('--endpoint-second', 'needs --endpoint-second: the harness cannot start a second instance of an external endpoint without a command that does')
        : new UnimplementedError('wire second instance', "the harness cannot start a second instance of a testee's own endpoint (the durable tests check one writer through durable.open)");
    }
    const started = await t.second();
    expect(started, 'a second writer on the same record (jcp §4.11: one writer per record)').toBeUndefined();
    const sg = grantFor(t, 'after a second instance', 1000n);
    await onConnection(t, async (c) => {
      await expectRemaining(t, c, sg, 0n, 'after a second instance');
    });
  });

  clauseIt(
    // record-before-deciding, read as impl/durable reads it: nothing of a decision is released (answered, acted on)
    // before its request is recorded; what the wire can show is that an answered request outlives a restart
    ['jcp/11#replay-before-new', 'jcp/11#record-before-deciding', 'jcp/11#repeat-gets-same-response', 'jcp/11#repeat-not-redecided'],
    'across a restart the spend is re-established before anything new is decided, and a repeat still gets its first response',
    async () => {
      const t = await wireTarget();
      // jcp §11 has no restart on the wire: only an endpoint the harness can restart is tested here
      if (!t.restart) throw new RunLacks('--endpoint-restart', 'needs --endpoint-restart: the harness cannot restart an external endpoint without a command that does');
      const sg = grantFor(t, 'restart', 1000n);
      const body = encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj: 250n, provenance: 'Estimator' } }), bob));
      const c1 = await connectWire(t.urls[0]!);
      let first: WireResponse;
      try {
        first = decided(t, await ask(c1, body)).response;
        expect(first.decision).toEqual({ verdict: 'allow' });
      } finally {
        await c1.close();
      }
      await t.restart();
      await onConnection(t, async (c2) => {
        // first something new: it must see the spend from before the restart (an endpoint that forgot would allow it
        // against the full budget), then the repeat: the first response again (a re-decision would seal a different
        // remaining budget), and no second debit
        await expectRemaining(t, c2, sg, 250n, 'after restart');
        const again = decided(t, await ask(c2, body));
        expect(toHex(again.response.receipt)).toBe(toHex(first.receipt));
        await expectRemaining(t, c2, sg, 251n, 'after restart and repeat');
      });
    },
  );

  clauseIt(
    // record before act (jcp §4.11, §11): an endpoint that answers before its record holds the decision loses it to a
    // restart that begins inside the gap; the restart begins as soon as each answer is read, so the gap caught is what
    // the restart command takes to reach the old process (a shell spawn for --endpoint-restart)
    ['jcp/11#record-before-deciding', 'jcp/4.11#record-allowed-durably'],
    'restarted the moment each answer arrives, six times over, the endpoint keeps every allow it answered',
    async () => {
      const t = await wireTarget();
      if (!t.restart) throw new RunLacks('--endpoint-restart', 'needs --endpoint-restart: the harness cannot restart an external endpoint without a command that does');
      const sg = grantFor(t, 'restart on answer', 1000n);
      let acknowledged = 0n;
      for (let i = 0; i < 6; i++) {
        const c = await connectWire(t.urls[0]!);
        const r = await spend(t, c, sg, 50n, `restart on answer ${i}`);
        const restarting = t.restart(); // begun before anything else: no await between the answer and the restart
        expect(r.core.verdict).toBe('allow');
        acknowledged += 50n;
        await c.close().catch(() => {});
        await restarting;
      }
      await onConnection(t, async (c) => {
        await expectRemaining(t, c, sg, acknowledged, 'after six restarts on answer');
      });
    },
    120_000,
  );

  clauseIt(
    ['jcp/11#repeat-not-redecided', 'jcp/11#verify-caller-signature'],
    'under concurrent load (many clients, pipelined, some repeats) every response verifies and spend equals the sum of allowed costs',
    async () => {
      const t = await wireTarget();
      const CLIENTS = 16;
      const PER_CLIENT = 24;
      // distinct costs whose total is over the budget, so some requests are denied budget-exceeded
      const costOf = (ci: number, k: number) => BigInt(100 + ci * PER_CLIENT + k);
      let total = 0n;
      for (let ci = 0; ci < CLIENTS; ci++) for (let k = 0; k < PER_CLIENT; k++) total += costOf(ci, k);
      const budget = (total * 2n) / 3n;
      const sg = grantFor(t, 'load', budget);
      const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, ci) => connectWire(t.urls[ci % t.urls.length]!)));
      try {
        const results = await Promise.all(
          clients.map(async (c, ci) => {
            const bodies = Array.from({ length: PER_CLIENT }, (_, k) =>
              encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj: costOf(ci, k), provenance: 'Estimator' }, frame: { ...request(t, sg).frame, payload_hash: contentId({ payload: `load ${ci} ${k}` }) } }), bob)),
            );
            // every request pipelined on the one connection, then every fourth presented again
            const firsts = await Promise.all(bodies.map((b) => ask(c, b)));
            const repeats = await Promise.all(bodies.filter((_, k) => k % 4 === 0).map((b) => ask(c, b)));
            return { firsts, repeats };
          }),
        );
        let allowed = 0n;
        const allowRemaining: { remaining: bigint; cost: bigint }[] = [];
        for (const { firsts, repeats } of results) {
          firsts.forEach((r, k) => {
            const { core } = decided(t, r);
            if (core.verdict === 'allow') {
              allowed += core.cost_uj;
              allowRemaining.push({ remaining: core.budget_remaining_uj, cost: core.cost_uj });
            } else expect(core.deny_reason).toBe('budget-exceeded');
            if (k % 4 === 0) expect(toHex(decided(t, repeats[k / 4]!).response.receipt)).toBe(toHex(r.kind === 'response' ? r.response.receipt : new Uint8Array()));
          });
        }
        expect(allowed).toBeGreaterThan(0n);
        expect(allowed).toBeLessThanOrEqual(budget);
        // the allows, in the order their remaining budgets fall, each debited exactly its own cost from the one before
        allowRemaining.sort((x, y) => (x.remaining > y.remaining ? -1 : x.remaining < y.remaining ? 1 : 0));
        let left = budget;
        for (const a of allowRemaining) {
          left -= a.cost;
          expect(a.remaining).toBe(left);
        }
        // the spend is the sum of the allowed costs: what is left is exactly what a last request can still spend
        const last = await ask(clients[0]!, encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj: budget - allowed + 1n, provenance: 'Estimator' }, frame: { ...request(t, sg).frame, payload_hash: contentId({ payload: 'load over' }) } }), bob)));
        expect(decided(t, last).response.decision).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded' });
        if (budget - allowed > 0n) {
          const exact = await ask(clients[0]!, encodeWireRequest(signWireRequest(request(t, sg, { cost: { uj: budget - allowed, provenance: 'Estimator' }, frame: { ...request(t, sg).frame, payload_hash: contentId({ payload: 'load exact' }) } }), bob)));
          expect(decided(t, exact).core).toMatchObject({ verdict: 'allow', budget_remaining_uj: 0n });
        }
        if (t.spent) expect(t.spent(grantId(sg.grant))).toBe(budget);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    },
    60_000,
  );
});
