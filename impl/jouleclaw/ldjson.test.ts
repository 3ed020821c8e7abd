// Unit tests of the policy engine's line-delimited JSON transport (impl/jouleclaw/ldjson.ts, jouleclaw §9): one
// response per request line, a malformed line answered with an error while the stream stays open.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPolicyEngine } from './policy.ts';
import { policyDigest } from './policy-digest.ts';
import { servePolicyLine, servePolicyStream } from './ldjson.ts';

const POLICY = { version: 1, rules: [{ name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }] };
const READ = { kind: 'filesystem', path: '/workspace/x', mode: 'read' };

const line = (o: unknown): string => JSON.stringify(o);

describe('policy transport (jouleclaw §9, line-delimited JSON)', () => {
  it('serves the five operations', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    const call = (o: unknown) => JSON.parse(servePolicyLine(e, line(o))) as Record<string, unknown>;
    expect(call({ op: 'policy_version' })).toEqual({ ok: { version: 0 } });
    expect(call({ op: 'install_policy', policy: POLICY, id: 1 })).toEqual({ id: 1, ok: { version: 1 } });
    const ev = call({ op: 'evaluate', agent: 'agent-a', action: READ });
    expect(ev).toEqual({ ok: { sequence: 1, policy_version: 1, policy_digest: policyDigest(e.policy()), agent: 'agent-a', action: READ, decision: { kind: 'allow', rule: 'read-workspace' } } });
    call({ op: 'evaluate', agent: 'agent-a', action: { ...READ, mode: 'write' } });
    expect((call({ op: 'audit' }) as { ok: { events: unknown[] } }).ok.events).toHaveLength(2);
    const since = call({ op: 'audit_since', sequence: 1 }) as { ok: { events: Array<{ sequence: number; decision: unknown }> } };
    expect(since.ok.events.map((x) => [x.sequence, x.decision])).toEqual([[2, { kind: 'deny', reason: 'no_matching_allow' }]]);
    expect(call({ op: 'install_policy', policy: POLICY, id: 'again' })).toMatchObject({ id: 'again', error: { code: 'ERR_POLICY_VERSION_NOT_INCREASING' } });
  });

  it('answers every malformed line with an error carrying a stable code', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    const cases: Array<[string, string]> = [
      ['', 'ERR_POLICY_REQUEST_MALFORMED'],
      ['{', 'ERR_POLICY_REQUEST_MALFORMED'],
      ['[]', 'ERR_POLICY_REQUEST_MALFORMED'],
      ['null', 'ERR_POLICY_REQUEST_MALFORMED'],
      [line({ op: 'dance' }), 'ERR_POLICY_REQUEST_MALFORMED'],
      [line({ op: 'audit', extra: 1 }), 'ERR_POLICY_REQUEST_MALFORMED'],
      [line({ op: 'audit_since', sequence: -1 }), 'ERR_POLICY_REQUEST_MALFORMED'],
      [line({ op: 'audit', id: { x: 1 } }), 'ERR_POLICY_REQUEST_MALFORMED'],
      [line({ op: 'evaluate', agent: 5, action: READ }), 'ERR_POLICY_REQUEST_MALFORMED'],
      [line({ op: 'evaluate', agent: 'a', action: { kind: 'filesystem', path: 'rel', mode: 'read' } }), 'ERR_POLICY_ACTION_MALFORMED'],
      [line({ op: 'install_policy', policy: { version: 'x', rules: [] } }), 'ERR_POLICY_MALFORMED'],
      ['x'.repeat(70_000), 'ERR_POLICY_REQUEST_MALFORMED'],
    ];
    for (const [l, code] of cases) expect((JSON.parse(servePolicyLine(e, l)) as { error: { code: string } }).error.code, l.slice(0, 40)).toBe(code);
    expect(e.audit()).toHaveLength(0);
  });

  it('keeps a byte stream open after a malformed line: one response line per request line, in order', async () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    const input = new PassThrough();
    const output = new PassThrough();
    const served = servePolicyStream(e, input, output);
    input.write(`${line({ op: 'install_policy', policy: POLICY })}\n`);
    input.write('not json\n');
    // a request split across writes is one line
    const ev = line({ op: 'evaluate', agent: 'a', action: READ });
    input.write(ev.slice(0, 10));
    input.write(`${ev.slice(10)}\n`);
    input.end(`${line({ op: 'policy_version' })}\n`);
    await served;
    output.end();
    const chunks: Buffer[] = [];
    for await (const c of output) chunks.push(c as Buffer);
    const responses = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(responses).toHaveLength(4);
    expect(responses[0]).toEqual({ ok: { version: 1 } });
    expect(responses[1]).toMatchObject({ error: { code: 'ERR_POLICY_REQUEST_MALFORMED' } });
    expect(responses[2]).toMatchObject({ ok: { sequence: 1, decision: { kind: 'allow', rule: 'read-workspace' } } });
    expect(responses[3]).toEqual({ ok: { version: 1 } });
  });
});
