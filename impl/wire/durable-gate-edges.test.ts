// Edges of the wire gate over a durable point (jcp §11 "What the endpoint holds survives it", "A request it cannot
// record is denied unrecorded", "Caller authentication": a refused request is sealed like any other decision; §4.11):
// the sealing key must be the point's steward; an unrecorded request reaches the server as ERR_WIRE_UNRECORDED and is
// answered deny unrecorded, debiting nothing; the wire's own denies are sealed with the point's remaining budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { openDurablePoint, type DurablePoint } from '../durable/point.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { decodeWireReply, encodeWireRequest, signWireRequest, type UnsignedWireRequest } from './codec.ts';
import { durableWireGate } from './durable-gate.ts';
import { createWireServer } from './server.ts';

const T0 = 1_700_000_000n;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Keys, a grant and a request, built inside each test (not at import). */
function fixture() {
  const alice = keyPairFromSeed(deriveSeed('alice'));
  const bob = keyPairFromSeed(deriveSeed('bob'));
  const steward = keyPairFromSeed(deriveSeed('steward'));
  const resource = contentId({ resource: 'tool:search' });
  const sg: SignedGrant = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(7) });
  const unsigned: UnsignedWireRequest = {
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'a' }) },
    chain: [sg],
    caller: bob.did,
    cost: { uj: 300n, provenance: 'HwShunt' },
    now: T0,
  };
  return { alice, bob, steward, sg, unsigned };
}

/** A durable point in a fresh directory whose fsync fails once `failing.on` is set (a disk that stops taking writes). */
function pointIn(steward: ReturnType<typeof fixture>['steward'], failing = { on: false }): DurablePoint {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-wire-durable-edges-'));
  dirs.push(dir);
  return openDurablePoint({
    path: path.join(dir, 'record'),
    steward,
    holder: 'wire-test',
    io: {
      writeSync: (fd, b, off, len, position) => fs.writeSync(fd, b, off, len, position),
      fsyncSync: (fd) => {
        if (failing.on) throw new Error('the disk took no more');
        fs.fsyncSync(fd);
      },
    },
  });
}

describe('durableWireGate (jcp §11 over §4.11)', () => {
  it('refuses a sealing key that is not the point steward, naming both, ERR_BAD_ARGUMENT', () => {
    const { alice, steward } = fixture();
    const p = pointIn(steward);
    try {
      const e = thrown(() => durableWireGate(p, alice));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: the sealing key ${alice.did} is not the durable point's steward ${steward.did}`);
      // the steward's own key is taken, and the gate names it
      expect(durableWireGate(p, steward).steward).toBe(steward.did);
    } finally {
      p.close();
    }
  });

  it('a request the point cannot record throws ERR_WIRE_UNRECORDED with the why, and the server denies it unrecorded, debiting nothing', async () => {
    const { bob, steward, sg, unsigned } = fixture();
    const failing = { on: false };
    const p = pointIn(steward, failing);
    try {
      const gate = durableWireGate(p, steward);
      const body = encodeWireRequest(signWireRequest(unsigned, bob));
      failing.on = true;
      const req = { frame: unsigned.frame, chain: unsigned.chain, caller: unsigned.caller, cost: unsigned.cost, now_s: T0 };
      const e = thrown(() => gate.decideOnce(new Uint8Array(32).fill(1), req, () => new Uint8Array([0xa0])));
      expect(e.code).toBe('ERR_WIRE_UNRECORDED');
      expect(e.message.startsWith('ERR_WIRE_UNRECORDED: ')).toBe(true);
      expect(e.message).toContain('the disk took no more');
      // through the endpoint: deny unrecorded, sealed by the steward, nothing debited (jcp §11)
      const reply = decodeWireReply(await createWireServer({ gate, now_s: () => T0 }).handle(body));
      expect(reply.kind).toBe('response');
      if (reply.kind !== 'response') return;
      expect(reply.response.decision).toEqual({ verdict: 'deny', deny_reason: 'unrecorded' });
      const core = verifyReceipt(reply.response.receipt, { steward: steward.did }).core;
      expect(core.verdict).toBe('deny');
      expect(core.deny_reason).toBe('unrecorded');
      expect(core.budget_remaining_uj).toBe(1000n);
      expect(p.spent(grantId(sg.grant))).toBe(0n);
    } finally {
      p.close();
    }
  });

  it("seals the wire's own deny (bad-signature) under the steward, with the point's remaining budget after a debit", async () => {
    const { bob, steward, sg, unsigned } = fixture();
    const p = pointIn(steward);
    try {
      const gate = durableWireGate(p, steward);
      const server = createWireServer({ gate, now_s: () => T0 });
      const first = decodeWireReply(await server.handle(encodeWireRequest(signWireRequest(unsigned, bob))));
      expect(first.kind === 'response' && first.response.decision.verdict).toBe('allow');
      expect(p.spent(grantId(sg.grant))).toBe(300n);
      // directly: a receipt sealed by the steward, deny bad-signature, 700 µJ left of the leaf grant
      const req = { frame: unsigned.frame, chain: unsigned.chain, caller: unsigned.caller, cost: unsigned.cost, now_s: T0 };
      const sealed = await gate.sealRefusal(req, 'bad-signature');
      expect(sealed).toBeInstanceOf(Uint8Array);
      const core = verifyReceipt(sealed, { steward: steward.did }).core;
      expect(core.verdict).toBe('deny');
      expect(core.deny_reason).toBe('bad-signature');
      expect(core.budget_remaining_uj).toBe(700n);
      // through the endpoint: a request whose signature is not its caller's is denied bad-signature and sealed
      const signed = signWireRequest({ ...unsigned, now: T0 + 1n }, bob);
      const signature = signed.signature.slice();
      signature[0]! ^= 1;
      const forged = decodeWireReply(await server.handle(encodeWireRequest({ ...signed, signature })));
      expect(forged.kind).toBe('response');
      if (forged.kind !== 'response') return;
      expect(forged.response.decision).toEqual({ verdict: 'deny', deny_reason: 'bad-signature' });
      expect(verifyReceipt(forged.response.receipt, { steward: steward.did }).core.budget_remaining_uj).toBe(700n);
      expect(p.spent(grantId(sg.grant))).toBe(300n);
    } finally {
      p.close();
    }
  });
});
