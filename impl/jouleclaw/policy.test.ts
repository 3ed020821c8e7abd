// Unit tests of the policy engine (impl/jouleclaw/policy.ts, jouleclaw §9): deny-by-default, explicit Deny before
// any Allow, first matching Allow wins, one AuditEvent per evaluation, install only a higher version; and the parsers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { createPolicyEngine, decidePolicy, globMatch, parsePolicy, parsePolicyAction, type Policy, type PolicyAction } from './policy.ts';
import { policyDigest } from './policy-digest.ts';

const FS_READ: PolicyAction = { kind: 'filesystem', path: '/workspace/x', mode: 'read' };

function policy(version: number, rules: unknown[]): Policy {
  return parsePolicy({ version, rules });
}
const allowWs = { name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } };
const allowAll = { name: 'read-all', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/**', modes: ['read', 'write'] } };
const denyX = { name: 'no-x', effect: 'deny', agents: ['agent-a'], action: { kind: 'filesystem', path_glob: '/workspace/x', modes: ['read'] } };

describe('decidePolicy (jouleclaw §9 evaluation rule)', () => {
  it('denies by default: no rules, or no rule of the action\'s granularity', () => {
    expect(decidePolicy(policy(0, []), 'agent-a', FS_READ)).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
    const proc = policy(1, [{ name: 'git', effect: 'allow', agents: 'any', action: { kind: 'process', binary_glob: '/usr/bin/git' } }]);
    expect(decidePolicy(proc, 'agent-a', FS_READ)).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
    expect(decidePolicy(proc, 'agent-a', { kind: 'process', binary: '/usr/bin/git', argv: ['status'] })).toEqual({ kind: 'allow', rule: 'git' });
    expect(decidePolicy(proc, 'agent-a', { kind: 'process', binary: '/usr/bin/gitk', argv: [] })).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
  });

  it('scans Deny rules before any Allow, even an Allow listed earlier', () => {
    const p = policy(1, [allowWs, denyX]);
    expect(decidePolicy(p, 'agent-a', FS_READ)).toEqual({ kind: 'deny', reason: 'explicit_deny', rule: 'no-x' });
    // the deny names agent-a only: agent-b falls through to the allow
    expect(decidePolicy(p, 'agent-b', FS_READ)).toEqual({ kind: 'allow', rule: 'read-workspace' });
  });

  it('lets the first matching Allow win', () => {
    expect(decidePolicy(policy(1, [allowWs, allowAll]), 'a', FS_READ)).toEqual({ kind: 'allow', rule: 'read-workspace' });
    expect(decidePolicy(policy(1, [allowAll, allowWs]), 'a', FS_READ)).toEqual({ kind: 'allow', rule: 'read-all' });
  });

  it('matches modes, methods and port ranges; a reversed range matches nothing', () => {
    expect(decidePolicy(policy(1, [allowWs]), 'a', { ...FS_READ, mode: 'write' })).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
    const net = (from: number, to: number) => policy(1, [{ name: 'https', effect: 'allow', agents: 'any', action: { kind: 'network', host_glob: '*.example.com', from, to, methods: ['get'] } }]);
    const get443: PolicyAction = { kind: 'network', host: 'api.example.com', port: 443, method: 'get' };
    expect(decidePolicy(net(443, 443), 'a', get443).kind).toBe('allow');
    expect(decidePolicy(net(400, 500), 'a', get443).kind).toBe('allow');
    expect(decidePolicy(net(500, 400), 'a', get443).kind).toBe('deny');
    expect(decidePolicy(net(443, 443), 'a', { ...get443, method: 'post' }).kind).toBe('deny');
    expect(decidePolicy(net(443, 443), 'a', { ...get443, port: 444 }).kind).toBe('deny');
    expect(decidePolicy(net(443, 443), 'a', { ...get443, host: 'a.b.example.com' }).kind).toBe('deny');
  });
});

describe('globMatch', () => {
  it('stops * at the separator and lets ** cross it', () => {
    expect(globMatch('/w/*', '/w/a', '/')).toBe(true);
    expect(globMatch('/w/*', '/w/a/b', '/')).toBe(false);
    expect(globMatch('/w/**', '/w/a/b', '/')).toBe(true);
    expect(globMatch('/w/**', '/v/a', '/')).toBe(false);
    expect(globMatch('*.example.com', 'api.example.com', '.')).toBe(true);
    expect(globMatch('exact', 'exact', '/')).toBe(true);
    expect(globMatch('exact', 'exact2', '/')).toBe(false);
  });
  it('stays fast on a pathological pattern', () => {
    expect(globMatch('*'.repeat(40) + 'b', 'a'.repeat(2000), '/')).toBe(false);
  });
});

describe('the engine (jouleclaw §9 AuditEvent, live update)', () => {
  it('records one AuditEvent per evaluation with a strictly increasing sequence and the digest in force', () => {
    const p1 = policy(1, [allowWs]);
    const e = createPolicyEngine({ engine_id: 'engine-A', policy: p1 });
    const a = e.evaluate('agent-a', FS_READ);
    const b = e.evaluate('agent-a', { ...FS_READ, mode: 'write' });
    expect([a.sequence, b.sequence]).toEqual([1n, 2n]);
    expect(a.decision).toEqual({ kind: 'allow', rule: 'read-workspace' });
    expect(b.decision).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
    expect(e.audit()).toEqual([a, b]);
    expect(e.auditSince(1n)).toEqual([b]);
    expect(a.policy_digest).toBe(policyDigest(p1));
    const p2 = policy(2, [denyX, allowWs]);
    e.installPolicy(p2);
    const c = e.evaluate('agent-a', FS_READ);
    expect(c).toMatchObject({ sequence: 3n, policy_version: 2n, policy_digest: policyDigest(p2), decision: { kind: 'deny', reason: 'explicit_deny', rule: 'no-x' } });
    // the earlier event keeps the digest that was in force when it was decided
    expect(e.auditEvent(1n)?.policy_digest).toBe(policyDigest(p1));
  });

  it('installs only a strictly higher version, and a refused install changes nothing', () => {
    const e = createPolicyEngine({ engine_id: 'e', policy: policy(5, [allowWs]) });
    expect(codeOf(() => e.installPolicy(policy(5, [])))).toBe('ERR_POLICY_VERSION_NOT_INCREASING');
    expect(codeOf(() => e.installPolicy(policy(4, [])))).toBe('ERR_POLICY_VERSION_NOT_INCREASING');
    expect(e.policyVersion()).toBe(5n);
    expect(e.evaluate('a', FS_READ).decision.kind).toBe('allow');
    e.installPolicy(policy(6, []));
    expect(e.policyVersion()).toBe(6n);
    expect(e.evaluate('a', FS_READ).decision.kind).toBe('deny');
  });

  it('starts empty (version 0, denying everything) and refuses a malformed request without recording it', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    expect(e.policyVersion()).toBe(0n);
    expect(e.evaluate('a', FS_READ).decision).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
    expect(codeOf(() => e.evaluate('a', { kind: 'filesystem', path: '/w/../etc', mode: 'read' }))).toBe('ERR_POLICY_ACTION_MALFORMED');
    expect(codeOf(() => e.evaluate('', FS_READ))).toBe('ERR_POLICY_ACTION_MALFORMED');
    expect(e.audit()).toHaveLength(1);
    expect(codeOf(() => createPolicyEngine({ engine_id: '' }))).toBe('ERR_BAD_ARGUMENT');
  });

  it('keeps the sequence strictly increasing over any run of evaluations and installs', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('eval' as const), fc.integer({ min: 0, max: 9 })), { maxLength: 30 }), (steps) => {
        const e = createPolicyEngine({ engine_id: 'e' });
        let evals = 0;
        for (const s of steps) {
          if (s === 'eval') {
            e.evaluate('a', FS_READ);
            evals++;
          } else if (BigInt(s) > e.policyVersion()) e.installPolicy(policy(s, [allowWs]));
          else expect(codeOf(() => e.installPolicy(policy(s, [])))).toBe('ERR_POLICY_VERSION_NOT_INCREASING');
        }
        const seqs = e.audit().map((x) => x.sequence);
        expect(seqs).toHaveLength(evals);
        seqs.forEach((q, i) => expect(q).toBe(BigInt(i + 1)));
      }),
      { seed: 20260608, numRuns: 100 },
    );
  });
});

describe('parsers', () => {
  it('refuse malformed policies and actions with the right code, saying where', () => {
    const bad: unknown[] = [
      null,
      { version: -1, rules: [] },
      { version: 1 },
      { version: 1, rules: [], extra: 1 },
      { version: 1, rules: [{ ...allowWs, effect: 'maybe' }] },
      { version: 1, rules: [{ ...allowWs, name: '' }] },
      { version: 1, rules: [{ ...allowWs, agents: 'some' }] },
      { version: 1, rules: [{ ...allowWs, action: { kind: 'filesystem', path_glob: '/x', modes: ['READ'] } }] },
      { version: 1, rules: [{ ...allowWs, action: { kind: 'network', host_glob: 'h', from: 0, to: 65536, methods: [] } }] },
      { version: 1, rules: [{ ...allowWs, action: { kind: 'network', host_glob: 'h', from: 1.5, to: 2, methods: [] } }] },
      { version: 1, rules: [{ ...allowWs, action: { kind: 'socket' } }] },
      { version: 1, rules: [{ ...allowWs, action: { kind: 'process', binary_glob: 'a\u0000b' } }] },
      { version: 1, rules: [{ ...allowWs, name: '\uD800' }] },
    ];
    for (const b of bad) expect(codeOf(() => parsePolicy(b)), JSON.stringify(b)).toBe('ERR_POLICY_MALFORMED');
    const badActions: unknown[] = [
      { kind: 'filesystem', path: 'relative', mode: 'read' },
      { kind: 'filesystem', path: '/a//b', mode: 'read' },
      { kind: 'filesystem', path: '/a/./b', mode: 'read' },
      { kind: 'filesystem', path: '/a', mode: 'read', extra: 1 },
      { kind: 'network', host: 'h', port: 70000, method: 'get' },
      { kind: 'process', binary: '/bin/x', argv: [1] },
      { kind: 'process', binary: '/bin/x' },
      [],
    ];
    for (const b of badActions) expect(codeOf(() => parsePolicyAction(b)), JSON.stringify(b)).toBe('ERR_POLICY_ACTION_MALFORMED');
  });
  it('accept CBOR-style bigint integers as JSON numbers', () => {
    expect(parsePolicy({ version: 3n, rules: [] }).version).toBe(3n);
    expect(parsePolicyAction({ kind: 'network', host: 'h', port: 443n, method: 'get' })).toEqual({ kind: 'network', host: 'h', port: 443, method: 'get' });
  });
});
