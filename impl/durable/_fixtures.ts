// Deterministic fixtures for impl/durable's unit tests and crash test (not part of the public surface).
// alice grants bob `call` on a tool (budget ROOT_BUDGET_UJ); bob delegates a narrower child to carol (CHILD_BUDGET_UJ),
// so the stream exercises single-grant and chained debits (an ancestor debited through its child, jcp §4.2, §8.1).
//
// Nothing here runs impl code at import: the keys and grants are built on first read (lazy, impl/_test-support.ts)
// and the ids are written out (checked in point.test.ts), so the impl functions they reach run inside the test that
// first reads them, and Stryker does not count those functions' mutants static.
import { lazy, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { blake3 } from '../hash/blake3.ts';
import type { KeyPair } from '../identity/ed25519.ts';
import { attenuate } from '../jcp/attenuate.ts';
import { contentId } from '../jcp/content-id.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import { mintGrant } from '../jcp/grant.ts';
import type { ContentId, SignedGrant } from '../jcp/types.ts';

const utf8 = new TextEncoder();

export const alice: KeyPair = lazyKey('alice');
export const bob: KeyPair = lazyKey('bob');
export const carol: KeyPair = lazyKey('carol');
export const steward: KeyPair = lazyKey('steward');
export const otherSteward: KeyPair = lazyKey('durable:other-steward');
/** contentId({ resource: 'tool:search' }). */
export const TOOL: ContentId = TOOL_RESOURCE;

/** A 16-byte nonce from a label. */
export function nonce(label: string): Uint8Array {
  return blake3(utf8.encode(`nonce:${label}`)).slice(0, 16);
}

export const ROOT_BUDGET_UJ = 10_000n;
export const CHILD_BUDGET_UJ = 4_000n;

/** alice → bob, `call` on TOOL. */
export const rootGrant: SignedGrant = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: ROOT_BUDGET_UJ, nonce: nonce('durable:root') }));
/** bob → carol, a child of rootGrant with a smaller budget. */
export const childGrant: SignedGrant = lazy(() => attenuate(rootGrant, bob, { subject: carol.did, budget_uj: CHILD_BUDGET_UJ, nonce: nonce('durable:child') }));
/** grantId(rootGrant.grant). */
export const ROOT_ID: ContentId = 'f717646951201c19f65a604cdad646e183e60313f4ee8ce54ce09bdd1da15d56';
/** grantId(childGrant.grant). */
export const CHILD_ID: ContentId = 'ea4cd3973ab412cf08321a7e4bb5f4e52a1ed250d99e67086eb2279478e8e6a3';

/** Request `n` of a stream: even n by bob on the root grant, odd n by carol through the chain; payload names n. */
export function streamRequest(n: number, uj: bigint, now_s = 1_000n): DecisionRequest {
  const chained = n % 2 === 1;
  const chain = chained ? [rootGrant, childGrant] : [rootGrant];
  return {
    frame: { kind: 'tool-call', trust: 'control', grant_id: chained ? CHILD_ID : ROOT_ID, action: 'call', resource: TOOL, payload_hash: contentId({ payload: `durable:${n}` }) },
    chain,
    caller: chained ? carol.did : bob.did,
    cost: { uj, provenance: 'Estimator' },
    now_s,
  };
}

/** The 32-byte request key of request `n` (what a wire binding would derive from the signed request's bytes). */
export function requestKey(n: number): Uint8Array {
  return blake3(utf8.encode(`durable:request:${n}`));
}

/** The cost of request `n`, from a fixed pattern (10 … 400 µJ). */
export function streamCost(n: number): bigint {
  return BigInt(10 + ((n * 7919) % 391));
}
