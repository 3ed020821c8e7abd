// Unit tests of the jouleclaw §1.1 cascade walk (impl/jouleclaw/cascade.ts).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { runCascade, UNRESOLVABLE, type CascadeTier } from './cascade.ts';
import type { Tier } from './receipt.ts';

const closes = (tier: Tier): CascadeTier<string> => ({ tier, invoke: () => ({ closes: true, value: tier }) });
const unresolvable = (tier: Tier): CascadeTier<string> => ({ tier, invoke: () => UNRESOLVABLE });

describe('the cascade (jouleclaw §1.1)', () => {
  it('walks cheapest first whatever the offer order, and stops at the first tier that closes', () => {
    const w = runCascade([closes('L3'), unresolvable('L0'), closes('L4'), unresolvable('L2')]);
    expect(w.invoked).toEqual(['L0', 'L2', 'L3']);
    expect(w.resolved).toBe('L3');
    expect(w.value).toBe('L3');
  });
  it('a walk in which no tier closes resolves nothing', () => {
    const w = runCascade([unresolvable('L1'), unresolvable('L0')]);
    expect(w.invoked).toEqual(['L0', 'L1']);
    expect(w.resolved).toBeUndefined();
  });
  it('a cache hit invokes nothing above it', () => {
    expect(runCascade([closes('L0'), closes('L1')]).invoked).toEqual(['L0']);
  });
  it('refuses a tag that is not L0–L4, listing the five', () => {
    const e = thrown(() => runCascade([closes('L5' as Tier)]));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: tier must be one of L0, L1, L2, L3, L4, got "L5"');
  });
  it('refuses a tier offered twice, naming it', () => {
    expect(thrown(() => runCascade([closes('L2'), unresolvable('L2')])).message).toBe('ERR_BAD_ARGUMENT: tier L2 is offered twice');
  });
  it('refuses an offer that is not a list of tiers', () => {
    expect(thrown(() => runCascade(null as never)).message).toBe('ERR_BAD_ARGUMENT: the cascade is offered a list of tiers');
  });
});
