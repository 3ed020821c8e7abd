// The fixtures written out or built lazily (harness/fixtures.ts) are the values they stand for.
import { describe, expect, it } from 'vitest';
import { alice, bob, carol, dave, key, mallory, resource, steward, TOOL } from './fixtures.ts';

describe('harness fixtures', () => {
  it('TOOL is the content id of the tool:search resource', () => {
    expect(TOOL).toBe(resource('tool:search'));
  });

  it('each named key is the key of its label', () => {
    const named = { alice, bob, carol, dave, mallory, steward };
    for (const [label, k] of Object.entries(named)) expect({ seed: k.seed, publicKey: k.publicKey, did: k.did }).toEqual(key(label));
  });
});
