// Unit tests of handoff.ts refusals and boundaries (jouleclaw §17.1 shape, §17.2 producer and consumer): each refusal's
// code and the field its message names, integer bounds, and optional ids omitted rather than set to undefined.
import { describe, expect, it } from 'vitest';
import { messageOf, thrown } from '../_test-support.ts';
import type { CborMap, CborValue } from '../cbor/index.ts';
import { commandHash, makeHandoff, parseHandoff, type HandoffInput } from './handoff.ts';

const MALFORMED = 'ERR_HANDOFF_MALFORMED';
const make = (over: Record<string, unknown>) => () => makeHandoff({ worker: 'w', closed_at: 5, ...over } as unknown as HandoffInput);
const cmd = (over: Record<string, unknown> = {}) => new Map<string, unknown>([['argv', ['ls']], ['command_hash', commandHash(['ls'])], ['exit_code', 0], ...Object.entries(over)]);
const base = () => new Map<string, unknown>([['worker', 'w'], ['closed_at', 5], ['completed', []], ['undone', []], ['commands', [cmd()]], ['issues_found', []], ['procedures_followed', []]]);
const parse = (over: Record<string, unknown>, drop?: string) => () => {
  const m = base();
  for (const [k, v] of Object.entries(over)) m.set(k, v);
  if (drop !== undefined) m.delete(drop);
  return parseHandoff(m as CborMap);
};

describe('commandHash refusals (jouleclaw §17.1)', () => {
  it('names argv when it is empty, holds a non-text element, or an element holds a NUL', () => {
    expect(messageOf(() => commandHash([]))).toBe(`${MALFORMED}: argv must be a non-empty list of text`);
    expect(messageOf(() => commandHash(['a', 5 as unknown as string]))).toBe(`${MALFORMED}: argv must be a non-empty list of text`);
    expect(messageOf(() => commandHash(['a', 'b\0c']))).toBe(`${MALFORMED}: argv[1] holds a NUL, which would make command_hash ambiguous`);
  });
});

describe('makeHandoff (jouleclaw §17.2 producer)', () => {
  it('refuses a malformed handoff naming the field at fault', () => {
    expect(messageOf(() => makeHandoff(null as unknown as HandoffInput))).toBe(`${MALFORMED}: a handoff must be an object`);
    expect(messageOf(make({ commands: 'ls' }))).toBe(`${MALFORMED}: commands must be a list`);
    expect(messageOf(make({ worker: '' }))).toBe(`${MALFORMED}: worker must be a non-empty id`);
    expect(messageOf(make({ worker: 7 }))).toBe(`${MALFORMED}: worker must be a non-empty id`);
    expect(messageOf(make({ node_id: 7 }))).toBe(`${MALFORMED}: node_id must be text`);
    expect(messageOf(make({ feature_id: 7 }))).toBe(`${MALFORMED}: feature_id must be text`);
    expect(messageOf(make({ commands: [null] }))).toBe(`${MALFORMED}: commands[0] must be an object`);
    expect(messageOf(make({ commands: ['ls'] }))).toBe(`${MALFORMED}: commands[0] must be an object`);
    expect(messageOf(make({ commands: [{ argv: [], exit_code: 0 }] }))).toBe(`${MALFORMED}: commands[0].argv must be a non-empty list of text`);
    expect(messageOf(make({ commands: [{ argv: ['ls'], exit_code: 1.5 }] }))).toBe(`${MALFORMED}: commands[0].exit_code must be an integer`);
    expect(messageOf(make({ closed_at: -1 }))).toBe(`${MALFORMED}: closed_at must be an integer ≥ 0`);
    for (const k of ['completed', 'undone', 'issues_found', 'procedures_followed']) {
      expect(messageOf(make({ [k]: 'x' }))).toBe(`${MALFORMED}: ${k} must be a list of text`);
      expect(messageOf(make({ [k]: ['ok', 5] }))).toBe(`${MALFORMED}: ${k} must be a list of text`);
    }
  });

  it('accepts the integer bounds: closed_at 0, exit codes down to the least safe integer, bigints in the safe range', () => {
    expect(makeHandoff({ worker: 'w', closed_at: 0 }).closed_at).toBe(0);
    expect(makeHandoff({ worker: 'w', closed_at: BigInt(Number.MAX_SAFE_INTEGER) }).closed_at).toBe(Number.MAX_SAFE_INTEGER);
    const h = makeHandoff({ worker: 'w', closed_at: 1, commands: [{ argv: ['a'], exit_code: BigInt(Number.MIN_SAFE_INTEGER) }, { argv: ['b'], exit_code: -1 }] });
    expect(h.commands.map((c) => c.exit_code)).toEqual([Number.MIN_SAFE_INTEGER, -1]);
  });

  it('refuses integers past the safe range and numeric text where an integer belongs', () => {
    expect(messageOf(make({ closed_at: BigInt(Number.MAX_SAFE_INTEGER) + 1n }))).toBe(`${MALFORMED}: closed_at must be an integer ≥ 0`);
    expect(messageOf(make({ commands: [{ argv: ['a'], exit_code: BigInt(Number.MIN_SAFE_INTEGER) - 1n }] }))).toBe(`${MALFORMED}: commands[0].exit_code must be an integer`);
    expect(messageOf(make({ closed_at: '5' }))).toBe(`${MALFORMED}: closed_at must be an integer ≥ 0`);
  });

  it('keeps each list of text as given', () => {
    const lists = { completed: ['a'], undone: ['b'], issues_found: ['c'], procedures_followed: ['d'] };
    expect(makeHandoff({ worker: 'w', closed_at: 1, ...lists })).toMatchObject(lists);
  });

  it('omits node_id and feature_id when absent, and keeps them when given', () => {
    const bare = makeHandoff({ worker: 'w', closed_at: 1 });
    expect(Object.keys(bare)).not.toContain('node_id');
    expect(Object.keys(bare)).not.toContain('feature_id');
    expect(makeHandoff({ worker: 'w', closed_at: 1, node_id: 'n', feature_id: 'F-1' })).toMatchObject({ node_id: 'n', feature_id: 'F-1' });
  });
});

describe('parseHandoff (jouleclaw §17.2 consumer)', () => {
  it('refuses a malformed handoff naming the field at fault', () => {
    expect(messageOf(() => parseHandoff([] as CborValue))).toBe(`${MALFORMED}: a handoff must be a map`);
    for (const k of ['completed', 'undone', 'issues_found', 'procedures_followed']) {
      expect(messageOf(parse({}, k))).toBe(`${MALFORMED}: the handoff lacks its ${k} list (empty lists are present, not omitted)`);
      expect(messageOf(parse({ [k]: [5] }))).toBe(`${MALFORMED}: ${k} must be a list of text`);
    }
    expect(messageOf(parse({}, 'commands'))).toBe(`${MALFORMED}: the handoff lacks its commands list`);
    expect(messageOf(parse({ worker: '' }))).toBe(`${MALFORMED}: worker must be a non-empty id`);
    expect(messageOf(parse({ worker: 7 }))).toBe(`${MALFORMED}: worker must be a non-empty id`);
    expect(messageOf(parse({ commands: 'ls' }))).toBe(`${MALFORMED}: commands must be a list`);
    expect(messageOf(parse({ commands: [cmd(), ['ls']] }))).toBe(`${MALFORMED}: commands[1] must be a map`);
    expect(messageOf(parse({ commands: [cmd({ argv: [] })] }))).toBe(`${MALFORMED}: commands[0].argv must be a non-empty list of text`);
    expect(messageOf(parse({ commands: [cmd({ command_hash: 5 })] }))).toBe(`${MALFORMED}: commands[0].command_hash must be text`);
    expect(messageOf(parse({ commands: [cmd({ exit_code: 'x' })] }))).toBe(`${MALFORMED}: commands[0].exit_code must be an integer`);
    expect(messageOf(parse({ node_id: 7 }))).toBe(`${MALFORMED}: node_id must be text`);
    expect(messageOf(parse({ feature_id: 7 }))).toBe(`${MALFORMED}: feature_id must be text`);
    expect(messageOf(parse({ closed_at: -1 }))).toBe(`${MALFORMED}: closed_at must be an integer ≥ 0`);
  });

  it('names the command and both hashes when command_hash is not BLAKE3 of its argv', () => {
    const lie = commandHash(['rm']);
    const e = thrown(parse({ commands: [cmd(), cmd({ command_hash: lie })] }));
    expect(e.code).toBe('ERR_HANDOFF_COMMAND_HASH');
    expect(e.message).toBe(`ERR_HANDOFF_COMMAND_HASH: commands[1].command_hash ${lie} is not BLAKE3 of its argv joined by NUL (${commandHash(['ls'])})`);
  });

  it('omits node_id and feature_id when absent, and keeps them when recorded', () => {
    const bare = parse({})();
    expect(Object.keys(bare)).not.toContain('node_id');
    expect(Object.keys(bare)).not.toContain('feature_id');
    expect(parse({ node_id: 'n', feature_id: 'F-1' })()).toMatchObject({ node_id: 'n', feature_id: 'F-1' });
  });
});
