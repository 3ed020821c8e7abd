// Unit tests of the policy engine's line-delimited JSON transport (impl/jouleclaw/ldjson.ts, jouleclaw §9): one
// response per request line, a malformed line answered with an error while the stream stays open.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { createPolicyEngine, parsePolicy, type PolicyEngine } from './policy.ts';
import { policyDigest } from './policy-digest.ts';
import { auditEventToJson, MAX_POLICY_LINE, servePolicyLine, servePolicyStream } from './ldjson.ts';

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

  it('answers every malformed line with an error carrying a stable code and saying what was wrong', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    const REQ = 'ERR_POLICY_REQUEST_MALFORMED';
    // [line, code, what the message says (where the test pins it)]
    const cases: Array<[string, string, string?]> = [
      ['', REQ],
      ['{', REQ, ': the line is not JSON: '],
      ['[]', REQ, ': a request must be a JSON object'],
      ['null', REQ, ': a request must be a JSON object'],
      ['5', REQ, ': a request must be a JSON object'],
      [line({ op: 'dance' }), REQ, ': unknown op "dance": expected evaluate, audit, audit_since, policy_version or install_policy'],
      [line({ op: 'audit', extra: 1 }), REQ, ': unexpected field "extra" for op audit'],
      [line({ op: 'audit_since', sequence: -1 }), REQ],
      [line({ op: 'audit', id: { x: 1 } }), REQ, ': "id" must be text or an integer'],
      [line({ op: 'evaluate', agent: 5, action: READ }), REQ, ': evaluate needs "agent" as text'],
      [line({ op: 'evaluate', agent: 'a', action: { kind: 'filesystem', path: 'rel', mode: 'read' } }), 'ERR_POLICY_ACTION_MALFORMED'],
      [line({ op: 'install_policy', policy: { version: 'x', rules: [] } }), 'ERR_POLICY_MALFORMED'],
      ['x'.repeat(70_000), REQ],
    ];
    for (const [l, code, says] of cases) {
      const err = (JSON.parse(servePolicyLine(e, l)) as { error: { code: string; message: string } }).error;
      expect(err.code, l.slice(0, 40)).toBe(code);
      if (says !== undefined) expect(err.message, l.slice(0, 40)).toContain(says);
    }
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

  // the error response of one line, as the server answers it
  const refusal = (l: string) => (JSON.parse(servePolicyLine(createPolicyEngine({ engine_id: 'e' }), l)) as { error: { code: string; message: string } }).error;

  it('refuses an "id" that is a number but not an integer', () => {
    expect(refusal(line({ op: 'audit', id: 1.5 })).message).toContain(': "id" must be text or an integer');
  });

  it('refuses a request line that is not text', () => {
    expect(refusal(5 as never).message).toContain(': a request line must be text');
  });

  it('serves a line of exactly MAX_POLICY_LINE characters and refuses one longer', () => {
    const req = line({ op: 'policy_version' });
    const padded = req.padEnd(MAX_POLICY_LINE, ' ');
    expect(JSON.parse(servePolicyLine(createPolicyEngine({ engine_id: 'e' }), padded))).toEqual({ ok: { version: 0 } });
    const e = refusal(`${padded} `);
    expect(e.code).toBe('ERR_POLICY_REQUEST_MALFORMED');
    expect(e.message).toContain(`: the request line is longer than ${MAX_POLICY_LINE} characters`);
  });

  it('audit_since takes sequence 0 and refuses a sequence that is text or a fraction', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    servePolicyLine(e, line({ op: 'install_policy', policy: POLICY }));
    servePolicyLine(e, line({ op: 'evaluate', agent: 'a', action: READ }));
    const since0 = JSON.parse(servePolicyLine(e, line({ op: 'audit_since', sequence: 0 }))) as { ok: { events: Array<{ sequence: number }> } };
    expect(since0.ok.events.map((x) => x.sequence)).toEqual([1]);
    for (const sequence of ['1', 1.5]) {
      const r = refusal(line({ op: 'audit_since', sequence }));
      expect(r.code, String(sequence)).toBe('ERR_POLICY_REQUEST_MALFORMED');
      expect(r.message).toContain(': audit_since needs "sequence" as a non-negative integer');
    }
  });

  it('an engine fault that is not a JcpError propagates instead of being answered as a bad request', () => {
    const faulty = { policyVersion: () => { throw new TypeError('engine fault'); } } as unknown as PolicyEngine;
    expect(() => servePolicyLine(faulty, line({ op: 'policy_version' }))).toThrow('engine fault');
  });

  it('an audit event travels with safe-integer numbers, and one past 2^53−1 is refused', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    e.installPolicy(parsePolicy(POLICY));
    const ev = e.evaluate('a', READ as never);
    expect(auditEventToJson({ ...ev, sequence: 2n ** 53n - 1n }).sequence).toBe(Number.MAX_SAFE_INTEGER);
    const err = thrown(() => auditEventToJson({ ...ev, policy_version: 2n ** 53n }));
    expect(err.code).toBe('ERR_POLICY_REQUEST_MALFORMED');
    expect(err.message).toContain(': 9007199254740992 is too large for a JSON number');
  });

  it('waits for the output to drain when it is full, then goes on', { timeout: 3000 }, async () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    const input = new PassThrough();
    const got: string[] = [];
    // a sink that takes one chunk at a time, acknowledged on a later turn: every write reports it full
    const output = new Writable({ highWaterMark: 1, write: (c: Buffer, _enc, done) => { got.push(c.toString('utf8')); setImmediate(done); } });
    const served = servePolicyStream(e, input, output);
    input.end(`${line({ op: 'policy_version' })}\n${line({ op: 'audit' })}\n`);
    await served;
    expect(got).toEqual([`${line({ ok: { version: 0 } })}\n`, `${line({ ok: { events: [] } })}\n`]);
  });
});
