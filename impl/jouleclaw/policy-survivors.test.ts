// Unit tests of the policy engine's edges (impl/jouleclaw/policy.ts, jouleclaw §9; port ranges and hashing as
// written, §10.1): the parsers' refusals (code, message saying where, detail), their limits exactly at the bound and
// one past it, the globs' separators per granularity, the plain forms, and the engine's argument checks, audit
// look-up and refused installs.
import { describe, expect, it } from 'vitest';
import { messageOf, thrown } from '../_test-support.ts';
import {
  actionToPlain,
  createPolicyEngine,
  decidePolicy,
  globMatch,
  parsePolicy,
  parsePolicyAction,
  parsePolicyRule,
  policyToPlain,
  type PolicyAction,
} from './policy.ts';

const PM = 'ERR_POLICY_MALFORMED';
const AM = 'ERR_POLICY_ACTION_MALFORMED';
const fsPred = { kind: 'filesystem', path_glob: '/w/**', modes: ['read'] };
const rule = (over: Record<string, unknown> = {}) => ({ name: 'r', effect: 'allow', agents: 'any', action: fsPred, ...over });
const pol = (over: Record<string, unknown> = {}) => ({ version: 1, rules: [rule(over)] });
const FS: PolicyAction = { kind: 'filesystem', path: '/w/x', mode: 'read' };

describe('parsePolicyAction (jouleclaw §9 Action)', () => {
  it('reads each granularity with its fields as written', () => {
    expect(parsePolicyAction({ kind: 'filesystem', path: '/w/x', mode: 'read' })).toEqual({ kind: 'filesystem', path: '/w/x', mode: 'read' });
    expect(parsePolicyAction({ kind: 'network', host: 'api.example.com', port: 443, method: 'get' })).toEqual({
      kind: 'network',
      host: 'api.example.com',
      port: 443,
      method: 'get',
    });
    expect(parsePolicyAction({ kind: 'process', binary: '/usr/bin/git', argv: ['status', '-s'] })).toEqual({
      kind: 'process',
      binary: '/usr/bin/git',
      argv: ['status', '-s'],
    });
  });

  it('accepts the root path "/" itself, and port bounds 0 and 65535', () => {
    expect(parsePolicyAction({ kind: 'filesystem', path: '/', mode: 'read' })).toEqual({ kind: 'filesystem', path: '/', mode: 'read' });
    expect(parsePolicyAction({ kind: 'network', host: 'h', port: 0, method: 'get' })).toMatchObject({ port: 0 });
    expect(parsePolicyAction({ kind: 'network', host: 'h', port: 65535, method: 'get' })).toMatchObject({ port: 65535 });
  });

  it('refuses a non-object, naming the action, with the detail saying what', () => {
    for (const v of [null, 'x', 7, [], new Uint8Array(2), new Map()]) {
      const e = thrown(() => parsePolicyAction(v));
      expect(e.code).toBe(AM);
      expect(e.message).toBe(`${AM}: action: must be an object`);
      expect(e.detail).toEqual({ what: 'action' });
    }
  });

  it('refuses an unknown kind, and an unexpected field', () => {
    expect(messageOf(() => parsePolicyAction({ kind: 'socket' }))).toBe(`${AM}: action.kind: must be "filesystem", "network" or "process"`);
    expect(messageOf(() => parsePolicyAction({}))).toBe(`${AM}: action.kind: must be "filesystem", "network" or "process"`);
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: '/a', mode: 'read', extra: 1 }))).toBe(`${AM}: action: unexpected field "extra"`);
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'h', port: 1, method: 'get', path: '/' }))).toBe(`${AM}: action: unexpected field "path"`);
    expect(messageOf(() => parsePolicyAction({ kind: 'process', binary: '/b', argv: [], mode: 'x' }))).toBe(`${AM}: action: unexpected field "mode"`);
  });

  it('refuses bad filesystem paths and modes, saying which field', () => {
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: '', mode: 'read' }))).toBe(`${AM}: action.path: must be non-empty text`);
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', mode: 'read' }))).toBe(`${AM}: action.path: must be non-empty text`);
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: 'rel/x', mode: 'read' }))).toBe(`${AM}: action.path: must be an absolute path`);
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: '/a/../b', mode: 'read' }))).toBe(
      `${AM}: action.path: must be normalised (no empty, "." or ".." segment): "/a/../b"`,
    );
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: '/a', mode: 'Read' }))).toBe(
      `${AM}: action.mode: must be a lower-case tag such as "read" or "get"`,
    );
  });

  it('refuses bad network hosts, ports and methods, saying which field', () => {
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: '', port: 1, method: 'get' }))).toBe(`${AM}: action.host: must be non-empty text`);
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'h', port: 65536, method: 'get' }))).toBe(`${AM}: action.port: must be an integer in 0..65535`);
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'h', port: -1, method: 'get' }))).toBe(`${AM}: action.port: must be an integer in 0..65535`);
    // a port must be a number or a CBOR integer: text that looks like one is refused
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'h', port: '443', method: 'get' }))).toBe(`${AM}: action.port: must be an integer in 0..65535`);
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'h', port: 1.5, method: 'get' }))).toBe(`${AM}: action.port: must be an integer in 0..65535`);
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'h', port: 1, method: 'GET' }))).toBe(
      `${AM}: action.method: must be a lower-case tag such as "read" or "get"`,
    );
  });

  it('refuses bad process binaries and argv, saying which entry', () => {
    expect(messageOf(() => parsePolicyAction({ kind: 'process', binary: '/b' }))).toBe(`${AM}: action.argv: must be an array`);
    expect(messageOf(() => parsePolicyAction({ kind: 'process', binary: '/b', argv: 'x' }))).toBe(`${AM}: action.argv: must be an array`);
    expect(messageOf(() => parsePolicyAction({ kind: 'process', binary: '/b', argv: ['ok', 1] }))).toBe(`${AM}: action.argv[1].a: must be non-empty text`);
    expect(messageOf(() => parsePolicyAction({ kind: 'process', binary: '', argv: [] }))).toBe(`${AM}: action.binary: must be non-empty text`);
  });

  it('refuses text with NUL or a lone surrogate, but keeps a surrogate pair', () => {
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'a\u0000b', port: 1, method: 'get' }))).toBe(`${AM}: action.host: must not contain NUL`);
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: 'a\uDC00', port: 1, method: 'get' }))).toBe(
      `${AM}: action.host: has a lone surrogate (not UTF-8 encodable)`,
    );
    expect(parsePolicyAction({ kind: 'network', host: 'a\uD83D\uDE00', port: 1, method: 'get' })).toMatchObject({ host: 'a\uD83D\uDE00' });
  });

  it('takes text up to 4096 characters and refuses 4097', () => {
    const at = 'h'.repeat(4096);
    expect(parsePolicyAction({ kind: 'network', host: at, port: 1, method: 'get' })).toMatchObject({ host: at });
    expect(messageOf(() => parsePolicyAction({ kind: 'network', host: at + 'h', port: 1, method: 'get' }))).toBe(
      `${AM}: action.host: is longer than 4096 characters`,
    );
  });

  it('takes a tag up to 64 characters and refuses 65', () => {
    const at = 'm'.repeat(64);
    expect(parsePolicyAction({ kind: 'filesystem', path: '/a', mode: at })).toMatchObject({ mode: at });
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: '/a', mode: at + 'm' }))).toBe(
      `${AM}: action.mode: must be a lower-case tag such as "read" or "get"`,
    );
  });

  it('refuses a mode that is not text, even one that prints as a tag', () => {
    expect(messageOf(() => parsePolicyAction({ kind: 'filesystem', path: '/a', mode: ['read'] }))).toBe(
      `${AM}: action.mode: must be a lower-case tag such as "read" or "get"`,
    );
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...fsPred, modes: [['read']] } })))).toBe(
      `${PM}: rule.action.modes[0]: must be a lower-case tag such as "read" or "get"`,
    );
  });

  it('takes an argv of 1024 entries and refuses 1025', () => {
    const at = Array.from({ length: 1024 }, () => 'x');
    expect(parsePolicyAction({ kind: 'process', binary: '/b', argv: at })).toMatchObject({ argv: at });
    expect(messageOf(() => parsePolicyAction({ kind: 'process', binary: '/b', argv: [...at, 'x'] }))).toBe(`${AM}: action.argv: has more than 1024 entries`);
  });
});

describe('parsePolicy / parsePolicyRule (jouleclaw §9 Policy and Rule)', () => {
  it('reads a policy with each predicate kind and both scopes', () => {
    const p = parsePolicy({
      version: 7,
      rules: [
        rule({ name: 'a', agents: ['agent-1', 'agent-2'] }),
        rule({ name: 'b', effect: 'deny', action: { kind: 'network', host_glob: '*.x', from: 0, to: 65535, methods: ['get'] } }),
        rule({ name: 'c', action: { kind: 'process', binary_glob: '/usr/bin/*' } }),
      ],
    });
    expect(p).toEqual({
      version: 7n,
      rules: [
        { name: 'a', effect: 'allow', agents: { kind: 'one_of', ids: ['agent-1', 'agent-2'] }, action: fsPred },
        { name: 'b', effect: 'deny', agents: { kind: 'any' }, action: { kind: 'network', host_glob: '*.x', from: 0, to: 65535, methods: ['get'] } },
        { name: 'c', effect: 'allow', agents: { kind: 'any' }, action: { kind: 'process', binary_glob: '/usr/bin/*' } },
      ],
    });
  });

  it('refuses a non-object policy, an unexpected field, a missing or bad version and rules', () => {
    for (const v of [null, [], 'p', new Map()]) {
      const e = thrown(() => parsePolicy(v));
      expect(e.message).toBe(`${PM}: policy: must be an object`);
      expect(e.detail).toEqual({ what: 'policy' });
    }
    expect(messageOf(() => parsePolicy({ version: 1, rules: [], extra: 1 }))).toBe(`${PM}: policy: unexpected field "extra"`);
    expect(messageOf(() => parsePolicy({ version: 1 }))).toBe(`${PM}: policy.rules: must be an array`);
    expect(messageOf(() => parsePolicy({ version: -1, rules: [] }))).toBe(`${PM}: policy.version: must be an integer in 0..18446744073709551615`);
    expect(messageOf(() => parsePolicy({ version: '5', rules: [] }))).toBe(`${PM}: policy.version: must be an integer in 0..18446744073709551615`);
    expect(messageOf(() => parsePolicy({ version: 2n ** 64n, rules: [] }))).toBe(`${PM}: policy.version: must be an integer in 0..18446744073709551615`);
    expect(parsePolicy({ version: 2n ** 64n - 1n, rules: [] }).version).toBe(2n ** 64n - 1n);
  });

  it('takes 1024 rules and refuses 1025', () => {
    const at = Array.from({ length: 1024 }, () => rule());
    expect(parsePolicy({ version: 1, rules: at }).rules).toHaveLength(1024);
    expect(messageOf(() => parsePolicy({ version: 1, rules: [...at, rule()] }))).toBe(`${PM}: policy.rules: has more than 1024 entries`);
  });

  it('names the rule by its index inside a policy, and "rule" when parsed alone', () => {
    expect(messageOf(() => parsePolicy({ version: 1, rules: [rule(), 5] }))).toBe(`${PM}: policy.rules[1]: must be an object`);
    expect(messageOf(() => parsePolicy({ version: 1, rules: [rule({ effect: 'maybe' })] }))).toBe(`${PM}: policy.rules[0].effect: must be "allow" or "deny"`);
    expect(messageOf(() => parsePolicyRule(5))).toBe(`${PM}: rule: must be an object`);
    expect(messageOf(() => parsePolicyRule({ ...rule(), x: 1 }))).toBe(`${PM}: rule: unexpected field "x"`);
    expect(messageOf(() => parsePolicyRule(rule({ effect: 'maybe' })))).toBe(`${PM}: rule.effect: must be "allow" or "deny"`);
    expect(messageOf(() => parsePolicyRule(rule({ name: '' })))).toBe(`${PM}: rule.name: must be non-empty text`);
  });

  it('refuses a bad agent scope, saying which id', () => {
    expect(messageOf(() => parsePolicy(pol({ agents: 'some' })))).toBe(`${PM}: policy.rules[0].agents: must be "any" or an array of agent ids`);
    expect(messageOf(() => parsePolicy(pol({ agents: ['a', ''] })))).toBe(`${PM}: policy.rules[0].agents[1].id: must be non-empty text`);
  });

  it('takes a scope of 1024 agent ids and refuses 1025', () => {
    const at = Array.from({ length: 1024 }, (_, i) => `agent-${i}`);
    expect(parsePolicyRule(rule({ agents: at })).agents).toEqual({ kind: 'one_of', ids: at });
    expect(messageOf(() => parsePolicyRule(rule({ agents: [...at, 'x'] })))).toBe(`${PM}: rule.agents: has more than 1024 agent ids`);
  });

  it('refuses a bad predicate, saying which field or entry', () => {
    expect(messageOf(() => parsePolicyRule(rule({ action: 5 })))).toBe(`${PM}: rule.action: must be an object`);
    expect(messageOf(() => parsePolicyRule(rule({ action: { kind: 'socket' } })))).toBe(`${PM}: rule.action.kind: must be "filesystem", "network" or "process"`);
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...fsPred, x: 1 } })))).toBe(`${PM}: rule.action: unexpected field "x"`);
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...fsPred, modes: ['read', 'Write'] } })))).toBe(
      `${PM}: rule.action.modes[1]: must be a lower-case tag such as "read" or "get"`,
    );
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...fsPred, path_glob: '' } })))).toBe(`${PM}: rule.action.path_glob: must be non-empty text`);
    const net = { kind: 'network', host_glob: 'h', from: 0, to: 1, methods: ['get'] };
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...net, methods: ['get', 'POST'] } })))).toBe(
      `${PM}: rule.action.methods[1]: must be a lower-case tag such as "read" or "get"`,
    );
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...net, from: 65536 } })))).toBe(`${PM}: rule.action.from: must be an integer in 0..65535`);
    expect(messageOf(() => parsePolicyRule(rule({ action: { ...net, to: -1 } })))).toBe(`${PM}: rule.action.to: must be an integer in 0..65535`);
    expect(messageOf(() => parsePolicyRule(rule({ action: { kind: 'process', binary_glob: '/b', modes: [] } })))).toBe(`${PM}: rule.action: unexpected field "modes"`);
  });
});

describe('plain forms', () => {
  it('policyToPlain gives back what parsePolicy reads', () => {
    const src = {
      version: 3n,
      rules: [
        rule({ name: 'a', agents: ['agent-2', 'agent-1', 'agent-2'] }),
        rule({ name: 'b', effect: 'deny', action: { kind: 'network', host_glob: '*.x', from: 500, to: 400, methods: ['get', 'post'] } }),
        rule({ name: 'c', action: { kind: 'process', binary_glob: '/usr/bin/*' } }),
      ],
    };
    const p = parsePolicy(src);
    expect(policyToPlain(p)).toEqual(src);
    expect(parsePolicy(policyToPlain(p))).toEqual(p);
  });

  it('actionToPlain copies a process argv rather than handing out the frozen action array', () => {
    const a = parsePolicyAction({ kind: 'process', binary: '/b', argv: ['x'] });
    const plain = actionToPlain(a);
    expect(plain).toEqual({ kind: 'process', binary: '/b', argv: ['x'] });
    expect(plain.argv).not.toBe((a as { argv: readonly string[] }).argv);
    (plain.argv as string[]).push('y');
    expect(a).toEqual({ kind: 'process', binary: '/b', argv: ['x'] });
    expect(actionToPlain(FS)).toEqual(FS);
  });
});

describe('matching by granularity (jouleclaw §9 filesystem / network / process)', () => {
  const one = (action: unknown) => parsePolicy({ version: 1, rules: [rule({ name: 'm', action })] });
  const deny = { kind: 'deny', reason: 'no_matching_allow' };

  it('a filesystem "*" does not cross "/"', () => {
    const p = one({ kind: 'filesystem', path_glob: '/w/*', modes: ['read'] });
    expect(decidePolicy(p, 'a', FS)).toEqual({ kind: 'allow', rule: 'm' });
    expect(decidePolicy(p, 'a', { ...FS, path: '/w/x/y' })).toEqual(deny);
  });

  it('a process "*" does not cross "/"', () => {
    const p = one({ kind: 'process', binary_glob: '/usr/bin/*' });
    expect(decidePolicy(p, 'a', { kind: 'process', binary: '/usr/bin/git', argv: [] })).toEqual({ kind: 'allow', rule: 'm' });
    expect(decidePolicy(p, 'a', { kind: 'process', binary: '/usr/bin/x/git', argv: [] })).toEqual(deny);
  });

  it('a network rule checks the host glob, and its "*" does not cross "."', () => {
    const p = one({ kind: 'network', host_glob: '*.example.com', from: 443, to: 443, methods: ['get'] });
    const get: PolicyAction = { kind: 'network', host: 'api.example.com', port: 443, method: 'get' };
    expect(decidePolicy(p, 'a', get)).toEqual({ kind: 'allow', rule: 'm' });
    expect(decidePolicy(p, 'a', { ...get, host: 'api.example.org' })).toEqual(deny);
    expect(decidePolicy(p, 'a', { ...get, host: 'a.b.example.com' })).toEqual(deny);
  });

  it('a port range matches from <= port <= to, both ends included (jouleclaw §10.1 ranges as written)', () => {
    const p = one({ kind: 'network', host_glob: 'h', from: 400, to: 500, methods: ['get'] });
    const at = (port: number) => decidePolicy(p, 'a', { kind: 'network', host: 'h', port, method: 'get' });
    expect(at(399)).toEqual(deny);
    expect(at(400)).toEqual({ kind: 'allow', rule: 'm' });
    expect(at(500)).toEqual({ kind: 'allow', rule: 'm' });
    expect(at(501)).toEqual(deny);
  });
});

describe('globMatch (the reading in policy.ts: "*" stops at the separator, "**" does not)', () => {
  it('"*" matches a run of several characters', () => {
    expect(globMatch('*', 'aa', '/')).toBe(true);
    expect(globMatch('*', 'aaa', '/')).toBe(true);
  });
  it('"**" matches a single character, a separator included', () => {
    expect(globMatch('**', 'a', '/')).toBe(true);
    expect(globMatch('**', '/', '/')).toBe(true);
    expect(globMatch('***', '/', '/')).toBe(true);
  });
});

describe('the engine (jouleclaw §9 surface)', () => {
  it('refuses a missing or empty engine_id with ERR_BAD_ARGUMENT', () => {
    for (const opts of [undefined, {}, { engine_id: '' }, { engine_id: 5 }]) {
      const e = thrown(() => createPolicyEngine(opts as never));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: engine_id must be non-empty text');
      expect(e.detail).toEqual({ what: 'engine_id' });
    }
    expect(createPolicyEngine({ engine_id: 'e' }).engine_id).toBe('e');
  });

  it('refuses an empty or non-text agent without recording an event', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    for (const agent of ['', 5]) {
      const err = thrown(() => e.evaluate(agent as never, FS));
      expect(err.code).toBe(AM);
      expect(err.message).toBe(`${AM}: agent must be non-empty text`);
      expect(err.detail).toEqual({ what: 'agent' });
    }
    expect(e.audit()).toEqual([]);
  });

  it('evaluate returns the recorded event; auditEvent finds each by its sequence', () => {
    const e = createPolicyEngine({ engine_id: 'e' });
    const a = e.evaluate('agent-a', FS);
    const b = e.evaluate('agent-b', FS);
    expect(a).toMatchObject({ sequence: 1n, policy_version: 0n, agent: 'agent-a', action: FS, decision: { kind: 'deny', reason: 'no_matching_allow' } });
    expect(e.auditEvent(1n)).toBe(a);
    expect(e.auditEvent(2n)).toBe(b);
    expect(e.auditEvent(0n)).toBeUndefined();
    expect(e.auditEvent(3n)).toBeUndefined();
  });

  it('a refused install says both versions', () => {
    const e = createPolicyEngine({ engine_id: 'e', policy: parsePolicy({ version: 5, rules: [] }) });
    const err = thrown(() => e.installPolicy(parsePolicy({ version: 5, rules: [] })));
    expect(err.code).toBe('ERR_POLICY_VERSION_NOT_INCREASING');
    expect(err.message).toBe('ERR_POLICY_VERSION_NOT_INCREASING: policy version 5 is not greater than the installed version 5');
    expect(err.detail).toEqual({ installed: '5', offered: '5' });
    expect(messageOf(() => e.installPolicy(parsePolicy({ version: 4, rules: [] })))).toBe(
      'ERR_POLICY_VERSION_NOT_INCREASING: policy version 4 is not greater than the installed version 5',
    );
  });
});
