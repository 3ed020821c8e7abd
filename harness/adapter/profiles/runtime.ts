// The reference's handlers for the suite-defined profiles jouleclaw:P-CASCADE, P-CLAIMS, P-ORCHESTRATOR (harness/protocol/profiles/runtime.md).
import type { CborInput, CborMap, CborValue } from '../../../impl/cbor/index.ts';
import { JcpError } from '../../../impl/errors.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';
import { runCascade, UNRESOLVABLE, type CascadeTier } from '../../../impl/jouleclaw/cascade.ts';
import type { Tier } from '../../../impl/jouleclaw/receipt.ts';
import { runMission } from '../../../impl/jouleclaw/orchestrator.ts';
import { resolveWithRetrieval } from '../../../impl/jouleclaw/retrieval.ts';
import { arg, bytes, map, text, texts, uint } from '../args.ts';

/** An array argument, refused when it is not one (or is shorter than `min`). */
function list(v: CborValue | undefined, k: string, min = 0): CborValue[] {
  if (!Array.isArray(v) || v.length < min) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array${min > 0 ? ` of at least ${min}` : ''}`);
  return v;
}

/** One of `allowed`, else ERR_BAD_ARGUMENT naming the argument. */
function oneOf<T extends string>(m: CborMap, k: string, allowed: readonly T[], path: string): T {
  const v = text(m, k);
  if (!(allowed as readonly string[]).includes(v)) throw new JcpError('ERR_BAD_ARGUMENT', `${path}.${k} must be one of ${allowed.join(', ')}, got "${v}"`);
  return v as T;
}

export function runtimeProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {
    // jouleclaw §1.1: each scripted tier closes the query or returns Unresolvable; the walk is the reference's runCascade
    'cascade.run': (a) => {
      const tiers: CascadeTier<null>[] = list(arg(a, 'tiers'), 'tiers', 1).map((t, i) => {
        const m = map(t, `tiers[${i}]`);
        const tier = oneOf(m, 'tier', ['L0', 'L1', 'L2', 'L3', 'L4'] as const, `tiers[${i}]`) as Tier;
        const closes = oneOf(m, 'outcome', ['closes', 'unresolvable'] as const, `tiers[${i}]`) === 'closes';
        return { tier, invoke: () => (closes ? { closes: true, value: null } : UNRESOLVABLE) };
      });
      const w = runCascade(tiers);
      return { invoked: [...w.invoked], ...(w.resolved !== undefined ? { resolved: w.resolved } : {}) };
    },
    // jouleclaw §1.2, §4: the retrieval stage and the model, the claims that contributed
    'claims.resolve': (a) => {
      const small = (v: bigint, k: string): number => {
        if (v > 10n) throw new JcpError('ERR_BAD_ARGUMENT', `${k} must be 0..10 (jouleclaw §4), got ${v}`);
        return Number(v);
      };
      const sources = list(arg(a, 'sources'), 'sources').map((s, i) => {
        const m = map(s, `sources[${i}]`);
        return {
          source: text(m, 'source'),
          content: bytes(m, 'content'),
          trust_tier: small(uint(m.get('trust_tier'), `sources[${i}].trust_tier`), `sources[${i}].trust_tier`),
          cost_uj: uint(m.get('cost_uj'), `sources[${i}].cost_uj`),
          closes: oneOf(m, 'outcome', ['closes', 'unresolvable'] as const, `sources[${i}]`) === 'closes',
        };
      });
      const r = resolveWithRetrieval({
        now: text(a, 'now'),
        threshold: small(uint(a.get('threshold'), 'threshold'), 'threshold'),
        inference_cost_uj: uint(a.get('inference_cost_uj'), 'inference_cost_uj'),
        sources,
      });
      return { tier: r.tier, claims: r.claims.map((c) => ({ source: c.source, content_hash: c.content_hash, fetched_at: c.fetched_at, trust_tier: c.trust_tier })) };
    },
    // jouleclaw §18.2: the reference's orchestrator over its run journal (§17), workers scripted by the features
    'orchestrator.run': (a) => {
      const features = list(arg(a, 'features'), 'features', 1).map((f, i) => {
        const m = map(f, `features[${i}]`);
        return {
          feature_id: text(m, 'feature_id'),
          worker: text(m, 'worker'),
          mutates_shared: oneOf(m, 'state', ['mutates', 'reads'] as const, `features[${i}]`) === 'mutates',
          completed: m.has('completed') ? texts(m.get('completed'), `features[${i}].completed`) : [],
        };
      });
      const now = uint(a.get('now_s'), 'now_s');
      if (now > BigInt(Number.MAX_SAFE_INTEGER)) throw new JcpError('ERR_BAD_ARGUMENT', 'now_s is too large');
      const r = runMission(text(a, 'run_id'), features, Number(now));
      return { trace: r.trace.map((e) => ({ event: e.event, feature_id: e.feature_id })) };
    },
  };
}
