// Helpers for impl's own unit tests (not part of the public surface, not mutated by Stryker).
import { createEnforcementPoint, type Decision } from './jcp/enforcement-point.ts';
import { contentId } from './jcp/content-id.ts';
import { grantId, mintGrant } from './jcp/grant.ts';
import { isJcpError } from './errors.ts';
import { deriveSeed, keyPairFromSeed } from './identity/ed25519.ts';

/** The JcpError code `fn` throws, 'accepted' when it returns, or 'not a JcpError: …' for any other throw. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : `not a JcpError: ${String(e)}`;
  }
}

/** One allowed decision, sealed by the steward 'steward': alice grants bob `call` on a tool, 42 µJ by HwShunt. */
export function allowedDecision(nonceFill = 3): Decision {
  const alice = keyPairFromSeed(deriveSeed('alice'));
  const bob = keyPairFromSeed(deriveSeed('bob'));
  const steward = keyPairFromSeed(deriveSeed('steward'));
  const resource = contentId({ resource: 'tool:search' });
  const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(nonceFill) });
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) } as const;
  return createEnforcementPoint({ steward }).decide({ frame, chain: [sg], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' }, now_s: 1n });
}
