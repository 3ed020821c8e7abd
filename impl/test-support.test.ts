// The helpers of impl's unit tests (impl/_test-support.ts): the ids written out there are the ids they stand for, and
// a lazy fixture reads as the object it stands for.
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, TOOL_RESOURCE } from './_test-support.ts';
import { deriveSeed, keyPairFromSeed } from './identity/ed25519.ts';
import { contentId } from './jcp/content-id.ts';

describe('unit-test support', () => {
  it('TOOL_RESOURCE is the content id of the tool:search resource', () => {
    expect(TOOL_RESOURCE).toBe(contentId({ resource: 'tool:search' }));
  });

  it('a lazy key pair is built on first read, once, and equals the eager one', () => {
    let built = 0;
    const k = lazy(() => (built++, keyPairFromSeed(deriveSeed('alice'))));
    expect(built).toBe(0);
    expect(k.did).toBe(keyPairFromSeed(deriveSeed('alice')).did);
    expect({ ...k }).toEqual(keyPairFromSeed(deriveSeed('alice')));
    expect(k).toEqual(lazyKey('alice'));
    expect(built).toBe(1);
  });

  it('a lazy array is an array', () => {
    const a = lazy(() => [1, 2, 3], []);
    expect(Array.isArray(a)).toBe(true);
    expect([...a]).toEqual([1, 2, 3]);
    expect(a.length).toBe(3);
  });
});
