// jouleclaw §17.1–§17.2 the worker handoff (RunEvent::HandoffRecorded): what a worker reports at end of feature work,
// each command identified by command_hash = hex BLAKE3 over argv.join("\0"), the argv carried for people only.
//
// Readings taken: closed_at is integer epoch seconds; completed, undone, issues_found and procedures_followed are lists
// of text; every list is always present (empty when the run had none, §17.2 "empty lists are acceptable"), node_id and
// feature_id are omitted when absent, never null. An argv must be non-empty and no element may hold a NUL: with one,
// ["a\0b"] and ["a", "b"] would share a command_hash, so the hash would not identify the command.
import type { CborInput, CborMap, CborValue } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { blake3HexOfText } from './contract-json.ts';

/** jouleclaw §17.1 one command observed during the work window. */
export interface HandoffCommand {
  readonly command_hash: string;
  readonly argv: readonly string[];
  readonly exit_code: number;
}

/** jouleclaw §17.1 the handoff a worker records on the run journal. */
export interface WorkerHandoff {
  readonly worker: string;
  readonly node_id?: string;
  readonly feature_id?: string;
  readonly closed_at: number;
  readonly completed: readonly string[];
  readonly undone: readonly string[];
  readonly commands: readonly HandoffCommand[];
  readonly issues_found: readonly string[];
  readonly procedures_followed: readonly string[];
}

/** What a worker supplies: commands as argv + exit code (the hash is computed), lists defaulting to empty. */
export interface HandoffInput {
  readonly worker: string;
  readonly node_id?: string;
  readonly feature_id?: string;
  readonly closed_at: number | bigint;
  readonly completed?: readonly string[];
  readonly undone?: readonly string[];
  readonly commands?: readonly { readonly argv: readonly string[]; readonly exit_code: number | bigint }[];
  readonly issues_found?: readonly string[];
  readonly procedures_followed?: readonly string[];
}

const H = 'ERR_HANDOFF_MALFORMED' as const;
const LISTS = ['completed', 'undone', 'issues_found', 'procedures_followed'] as const;

function checkArgv(argv: unknown, path: string): readonly string[] {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) throw new JcpError(H, `${path} must be a non-empty list of text`);
  argv.forEach((a: string, i) => {
    if (a.includes('\0')) throw new JcpError(H, `${path}[${i}] holds a NUL, which would make command_hash ambiguous`);
  });
  return Object.freeze([...(argv as string[])]);
}

/** jouleclaw §17.1 "command_hash MUST be hex BLAKE3 over argv.join("\0")". */
export function commandHash(argv: readonly string[]): string {
  return blake3HexOfText(checkArgv(argv, 'argv').join('\0'));
}

function smallInt(v: unknown, path: string, min: number): number {
  const n = typeof v === 'bigint' ? (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : NaN) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) throw new JcpError(H, `${path} must be an integer${min === 0 ? ' ≥ 0' : ''}`);
  return n;
}

function texts(v: unknown, path: string): readonly string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new JcpError(H, `${path} must be a list of text`);
  return Object.freeze([...(v as string[])]);
}

function optText(v: unknown, path: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new JcpError(H, `${path} must be text`);
  return v;
}

/** jouleclaw §17.2 the producer: every list present, every command's hash computed as specified. */
export function makeHandoff(input: HandoffInput): WorkerHandoff {
  if (typeof input !== 'object' || input === null) throw new JcpError(H, 'a handoff must be an object');
  if (input.commands !== undefined && !Array.isArray(input.commands)) throw new JcpError(H, 'commands must be a list');
  if (typeof input.worker !== 'string' || input.worker === '') throw new JcpError(H, 'worker must be a non-empty id');
  const node_id = optText(input.node_id, 'node_id');
  const feature_id = optText(input.feature_id, 'feature_id');
  const commands = (input.commands ?? []).map((c, i) => {
    if (typeof c !== 'object' || c === null) throw new JcpError(H, `commands[${i}] must be an object`);
    const argv = checkArgv(c.argv, `commands[${i}].argv`);
    // jouleclaw §17.2: "Compute command_hash as specified."
    return Object.freeze({ command_hash: blake3HexOfText(argv.join('\0')), argv, exit_code: smallInt(c.exit_code, `commands[${i}].exit_code`, Number.MIN_SAFE_INTEGER) });
  });
  return Object.freeze({
    worker: input.worker,
    ...(node_id !== undefined ? { node_id } : {}),
    ...(feature_id !== undefined ? { feature_id } : {}),
    closed_at: smallInt(input.closed_at, 'closed_at', 0),
    completed: texts(input.completed ?? [], 'completed'),
    undone: texts(input.undone ?? [], 'undone'),
    commands: Object.freeze(commands),
    issues_found: texts(input.issues_found ?? [], 'issues_found'),
    procedures_followed: texts(input.procedures_followed ?? [], 'procedures_followed'),
  });
}

/** The handoff as the CBOR map recorded in the journal (optional ids omitted, every list present). */
export function handoffToCbor(h: WorkerHandoff): CborInput {
  return {
    worker: h.worker,
    node_id: h.node_id,
    feature_id: h.feature_id,
    closed_at: h.closed_at,
    completed: [...h.completed],
    undone: [...h.undone],
    commands: h.commands.map((c) => ({ command_hash: c.command_hash, argv: [...c.argv], exit_code: c.exit_code })),
    issues_found: [...h.issues_found],
    procedures_followed: [...h.procedures_followed],
  };
}

/**
 * jouleclaw §17.2 the consumer: reads a recorded handoff, accepting additive fields (ignored), requiring every list
 * (ERR_HANDOFF_MALFORMED when one is missing), and refusing a command whose command_hash is not BLAKE3 of its argv
 * (ERR_HANDOFF_COMMAND_HASH): the hash is the command's identity, an argv that disagrees with it is not the command.
 */
export function parseHandoff(v: CborValue): WorkerHandoff {
  if (!(v instanceof Map)) throw new JcpError(H, 'a handoff must be a map');
  const m = v as CborMap;
  const get = (k: string): CborValue | undefined => m.get(k);
  for (const k of LISTS) if (!m.has(k)) throw new JcpError(H, `the handoff lacks its ${k} list (empty lists are present, not omitted)`);
  if (!m.has('commands')) throw new JcpError(H, 'the handoff lacks its commands list');
  const worker = get('worker');
  if (typeof worker !== 'string' || worker === '') throw new JcpError(H, 'worker must be a non-empty id');
  const cmds = get('commands');
  if (!Array.isArray(cmds)) throw new JcpError(H, 'commands must be a list');
  const commands = cmds.map((c, i) => {
    if (!(c instanceof Map)) throw new JcpError(H, `commands[${i}] must be a map`);
    const argv = checkArgv(c.get('argv'), `commands[${i}].argv`);
    const command_hash = c.get('command_hash');
    if (typeof command_hash !== 'string') throw new JcpError(H, `commands[${i}].command_hash must be text`);
    const want = blake3HexOfText(argv.join('\0'));
    // jouleclaw §17.1: "The hash, not the argv array, is the command's identity"
    if (command_hash !== want) throw new JcpError('ERR_HANDOFF_COMMAND_HASH', `commands[${i}].command_hash ${command_hash} is not BLAKE3 of its argv joined by NUL (${want})`);
    return Object.freeze({ command_hash, argv, exit_code: smallInt(c.get('exit_code'), `commands[${i}].exit_code`, Number.MIN_SAFE_INTEGER) });
  });
  const node_id = optText(get('node_id'), 'node_id');
  const feature_id = optText(get('feature_id'), 'feature_id');
  return Object.freeze({
    worker,
    ...(node_id !== undefined ? { node_id } : {}),
    ...(feature_id !== undefined ? { feature_id } : {}),
    closed_at: smallInt(get('closed_at'), 'closed_at', 0),
    completed: texts(get('completed'), 'completed'),
    undone: texts(get('undone'), 'undone'),
    commands: Object.freeze(commands),
    issues_found: texts(get('issues_found'), 'issues_found'),
    procedures_followed: texts(get('procedures_followed'), 'procedures_followed'),
  });
}
