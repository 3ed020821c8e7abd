// Helpers for impl's own unit tests (not part of the public surface, not mutated by Stryker).
import { createEnforcementPoint, type Decision } from './jcp/enforcement-point.ts';
import { contentId } from './jcp/content-id.ts';
import { grantId, mintGrant } from './jcp/grant.ts';
import { isJcpError, type JcpError } from './errors.ts';
import { deriveSeed, keyPairFromSeed, type KeyPair } from './identity/ed25519.ts';

/** The JcpError code `fn` throws, 'accepted' when it returns, or 'not a JcpError: …' for any other throw. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : `not a JcpError: ${String(e)}`;
  }
}

/** The JcpError `fn` throws, to read its code, message and detail; anything else thrown, or nothing, fails the test. */
export function thrown(fn: () => unknown): JcpError {
  try {
    fn();
  } catch (e) {
    if (isJcpError(e)) return e;
    throw new Error(`expected a JcpError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a JcpError, but nothing was thrown');
}

/** The message of the JcpError `fn` throws ({@link thrown}); a JcpError's message begins with its code, so it checks both. */
export const messageOf = (fn: () => unknown): string => thrown(fn).message;

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

/**
 * A stand-in for the object `make` builds, built on the first read of any of its properties and kept. Test files name
 * their keys, grants and policies at module level; built there, every impl function they reach would run at import,
 * outside any test, and Stryker would count its mutants static (tested only by reloading every test file). Built on
 * first read, they run inside the test that first reads them. For plain data only (`shape` [] for an array, so that
 * Array.isArray holds): a method reading private fields through the stand-in would see the proxy, not the object.
 */
export function lazy<T extends object>(make: () => T, shape: object = {}): T {
  let made: T | undefined;
  const real = (): T => (made ??= make());
  return new Proxy(shape as T, {
    get: (_, p) => Reflect.get(real(), p),
    has: (_, p) => Reflect.has(real(), p),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (t, p) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), p);
      // reported as the target holds it when it holds it unconfigurable (an array's length), else configurable: the
      // empty target holds none of the real object's frozen properties
      return d && { ...d, configurable: Reflect.getOwnPropertyDescriptor(t, p)?.configurable === false ? false : true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/** The key pair of the labelled seed (`keyPairFromSeed(deriveSeed(label))`), derived on first use ({@link lazy}). */
export function lazyKey(label: string): KeyPair {
  return lazy(() => keyPairFromSeed(deriveSeed(label)));
}

/**
 * `contentId({ resource: 'tool:search' })`, the tool most unit tests grant, written out so that naming it runs no CBOR
 * encoder or hash at import (impl/test-support.test.ts checks it is that id).
 */
export const TOOL_RESOURCE = '311b63475d02a76ef33e92f6617214c5601352e6d7b493c29f1e02b3f23fd1bf';
