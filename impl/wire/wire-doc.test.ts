// WIRE.md's worked example is what the code produces: the request frame and the response body, rebuilt from seeds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { decodeWireReply, decodeWireRequest, encodeWireRequest, frameMessage, signWireRequest, verifyWireSignature } from './codec.ts';
import { createMemoryWireGate, createWireServer } from './server.ts';

const doc = readFileSync(new URL('./WIRE.md', import.meta.url), 'utf8');

function block(name: string): string {
  const m = new RegExp('```hex ' + name + '\\n([0-9a-f\\n]+)```').exec(doc);
  if (!m) throw new Error(`WIRE.md has no hex block ${name}`);
  return m[1]!.replace(/\n/g, '');
}

describe('WIRE.md worked example', () => {
  it('is byte for byte what the codec and the endpoint produce from the labelled seeds', async () => {
    const alice = keyPairFromSeed(deriveSeed('alice'));
    const bob = keyPairFromSeed(deriveSeed('bob'));
    const steward = keyPairFromSeed(deriveSeed('steward'));
    const resource = contentId({ resource: 'tool:search' });
    const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(9) });
    const req = signWireRequest(
      { frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) }, chain: [sg], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' }, now: 1_700_000_000n },
      bob,
    );
    const body = encodeWireRequest(req);
    expect(toHex(frameMessage(body))).toBe(block('request-frame'));
    const response = await createWireServer({ gate: createMemoryWireGate({ steward }), now_s: () => 1_700_000_010n }).handle(body);
    expect(toHex(response)).toBe(block('response-body'));
    // and the documented bytes read back as documented
    expect(verifyWireSignature(decodeWireRequest(body))).toBe(true);
    const r = decodeWireReply(response);
    expect(r.kind === 'response' && verifyReceipt(r.response.receipt, { steward: steward.did }).core.budget_remaining_uj).toBe(958n);
  });
});
