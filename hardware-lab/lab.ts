// The lab job (jcp §5, §5.1): `npm run lab:probe` detects what the host has (a powercap tree, an NVML
// library with GPUs, macOS), probes each counter under a CPU burn, judges it with impl/energy, and writes a lab report
// (JSON) sealed as a COSE_Sign1 by the lab host's key, then prints a summary for the person at the host.
//   tsx hardware-lab/lab.ts [--out DIR] [--powercap-root DIR] [--nvml-library PATH] [--window-ms N]
//   tsx hardware-lab/lab.ts verify REPORT.json        (checks REPORT.json.cose seals exactly REPORT.json's bytes)
// Environment: JCP_LAB_SEED_HEX (the host's 32-byte Ed25519 seed, hex; without it a development key, said so in the
// report), JCP_POWERCAP_ROOT, JCP_NVML_LIBRARY, JCP_LAB_OUT.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, hostname, platform, release } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { decodeSign1, signSign1, verifySign1 } from '../impl/cose/sign1.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed, type KeyPair } from '../impl/identity/ed25519.ts';
import { publicKeyFromDid } from '../impl/identity/did-key.ts';
import { stewardKid } from '../impl/receipt/seal.ts';
import type { LadderChoice } from '../impl/energy/ladder.ts';
import { RaplBackend, DEFAULT_POWERCAP_ROOT } from './backends/rapl.ts';
import { DEFAULT_NVML_LIBRARY } from './backends/nvml.ts';
import { DEFAULT_ACTIVE_POWER_MW, ladderFor, probeMacos, probeNvml, probeRapl, type RungFinding, type RungProbe } from './meter.ts';
import { PROBE_TICK_MS, PROBE_WINDOW_MS } from './probe.ts';

/** The report's format name. */
export const LAB_REPORT_FORMAT = 'jcp-hardware-lab-report/1';
/** The label of the development key used when no JCP_LAB_SEED_HEX is set. */
export const DEV_KEY_LABEL = 'jcp hardware-lab development key';
/** The largest report the verifier accepts. */
export const MAX_REPORT_BYTES = 4 * 1024 * 1024;

/** Lab options. */
export interface LabOptions {
  readonly powercap_root?: string;
  readonly nvml_library?: string;
  readonly window_ms?: number;
  readonly platform?: string;
  /** The host's seed (32 bytes); absent → the development key. */
  readonly seed?: Uint8Array;
  readonly now_s?: number;
}

/** The host key and how it was obtained. */
export function labKey(seed?: Uint8Array): { readonly key: KeyPair; readonly source: string } {
  if (seed) return { key: keyPairFromSeed(seed), source: 'JCP_LAB_SEED_HEX (the lab host\'s key)' };
  return { key: keyPairFromSeed(deriveSeed(DEV_KEY_LABEL)), source: `development key (deriveSeed("${DEV_KEY_LABEL}")): NOT a lab host's key; set JCP_LAB_SEED_HEX` };
}

/** Parses JCP_LAB_SEED_HEX: 64 hex digits, else an error saying so. */
export function seedFromHex(hex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('JCP_LAB_SEED_HEX must be 64 hex digits (a 32-byte Ed25519 seed)');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** JSON with bigints written as decimal strings. */
export function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x), 2);
}

function ladderRecord(l: LadderChoice): Record<string, unknown> {
  return { rung: l.rung, energy: l.energy, declined: l.declined.map((d) => ({ rung: d.rung, reason: d.reason, ...(d.detail ? { detail: d.detail } : {}), ...(d.not_live ? { not_live: d.not_live } : {}), ...(d.plausibility ? { plausibility: d.plausibility } : {}) })) };
}

/** What the ladder would select for each counter rung alone (that rung's evidence, every other rung absent). */
function rungAlone(p: RungProbe, window_ms: number): Record<string, unknown> {
  const l = ladderFor([p.evidence], window_ms);
  const own = l.declined.find((d) => d.rung === p.finding.rung);
  return { selects: l.rung === p.finding.rung ? `${l.rung} (${l.energy.provenance}, ${l.energy.coverage})` : `${l.rung} (${l.energy.provenance}): ${p.finding.rung} declined: ${own?.reason ?? 'absent'}${own?.detail ? ` (${own.detail})` : ''}` };
}

/** Runs every probe and builds the report (unsealed). */
export async function runLab(o: LabOptions = {}): Promise<{ readonly report: Record<string, unknown>; readonly summary: readonly string[] }> {
  const window_ms = o.window_ms ?? PROBE_WINDOW_MS;
  const plat = o.platform ?? platform();
  const root = o.powercap_root ?? DEFAULT_POWERCAP_ROOT;
  const library = o.nvml_library ?? DEFAULT_NVML_LIBRARY;
  // one after the other: each probe burns a core of its own and must not compete with another probe's burn
  const rapl = await probeRapl(new RaplBackend({ root }), { window_ms });
  const nvml = await probeNvml(library, { window_ms });
  const mac = await probeMacos({ window_ms }, plat);
  const probes = [rapl, nvml, ...mac];
  const ladder = ladderFor(probes.map((p) => p.evidence), window_ms);
  const readable = probes.filter((p) => p.finding.status === 'probed');
  const report = {
    format: LAB_REPORT_FORMAT,
    issued_s: o.now_s ?? Math.floor(Date.now() / 1000),
    host: { hostname: hostname(), platform: plat, arch: arch(), kernel: release(), cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, node: process.version },
    probe: { tick_ms: PROBE_TICK_MS, window_ms, powercap_root: root, nvml_library: library, estimate_power_mw: DEFAULT_ACTIVE_POWER_MW },
    counters: probes.map((p) => ({ ...p.finding, ladder_alone: rungAlone(p, window_ms) })),
    hardware_counter_readable: readable.length > 0,
    ladder: ladderRecord(ladder),
  };
  return { report, summary: summarize(probes.map((p) => p.finding), ladder, readable.length > 0) };
}

function findingLine(f: RungFinding): string[] {
  const lines = [`  ${f.rung.padEnd(9)} ${f.status.padEnd(10)} ${f.detail}`];
  for (const c of f.counters) {
    const lv = c.liveness ? (c.liveness.live ? 'live' : `NOT live (${c.liveness.reason})`) : 'no samples';
    const ev = c.liveness ? ` counted ${c.liveness.counted}, advanced ${c.liveness.advanced}, too long ${c.liveness.too_long}, ${Number(c.liveness.counted_ns / 1_000_000n)} ms counted` : '';
    const rate = c.rate_mw !== undefined ? `, ${c.rate_mw} mW` : '';
    const pl = c.plausibility ? `; plausibility ${c.plausibility.verdict}${'bound_mw' in c.plausibility ? ` (bound ${c.plausibility.bound} ${c.plausibility.bound_mw} mW)` : ''}${'floor_mw' in c.plausibility && c.plausibility.floor_mw !== undefined ? ` (floor ${c.plausibility.floor_mw} mW)` : ''}` : '';
    lines.push(`      ${c.counter}: ${lv}${ev}${rate}${pl}`);
  }
  return lines;
}

/** The terminal summary. */
export function summarize(findings: readonly RungFinding[], ladder: LadderChoice, readable: boolean): string[] {
  const out = ['JCP hardware lab — energy counters on this host'];
  if (readable) out.push(...findings.flatMap(findingLine));
  else {
    out.push('No hardware energy counter is readable on this host. Why:');
    for (const f of findings) out.push(`  - ${f.rung}: ${f.status}: ${f.detail}`);
  }
  out.push(`Ladder: selects ${ladder.rung} → ${ladder.energy.provenance}${ladder.energy.coverage === 'Partial' ? ', Partial' : ''}; declined above it: ${ladder.declined.map((d) => `${d.rung} (${d.reason}${d.detail ? `: ${d.detail}` : ''})`).join(', ') || 'none'}`);
  if (ladder.rung === 'estimate') out.push(`The estimator rung: wall-clock time × a default ${DEFAULT_ACTIVE_POWER_MW / 1000n} W, graded Estimator (calibrated on no host).`);
  return out;
}

/** Seals the report's exact bytes as a COSE_Sign1 by the host key. */
export function sealReport(bytes: Uint8Array, key: KeyPair): Uint8Array {
  return signSign1(bytes, stewardKid(key.did), key.seed, defaultEd25519());
}

/** Verifies that `cose` seals exactly `bytes`; returns the signer's did:key, or throws saying what is wrong. */
export function verifyReport(bytes: Uint8Array, cose: Uint8Array, expectedSigner?: string): string {
  const s = decodeSign1(cose, { maxBytes: MAX_REPORT_BYTES + 1024 });
  const kid = s.protectedHeader.get(4);
  if (!(kid instanceof Uint8Array)) throw new Error('the seal names no signer (kid)');
  const signer = new TextDecoder('utf-8', { fatal: true }).decode(kid);
  if (expectedSigner !== undefined && signer !== expectedSigner) throw new Error(`sealed by ${signer}, expected ${expectedSigner}`);
  if (Buffer.compare(Buffer.from(s.payload), Buffer.from(bytes)) !== 0) throw new Error('the seal covers different bytes than the report file');
  if (!verifySign1(s, publicKeyFromDid(signer), defaultEd25519())) throw new Error(`the signature does not verify under ${signer}`);
  return signer;
}

const USAGE = `usage: tsx hardware-lab/lab.ts [--out DIR] [--powercap-root DIR] [--nvml-library FILE] [--window-ms MS]
       tsx hardware-lab/lab.ts verify REPORT.json [--signer did:key:...]

Probes this host's energy counters (RAPL under --powercap-root, NVML from --nvml-library, IOReport on macOS) and
writes a sealed report into --out (default hardware-lab/reports, which git ignores; also $JCP_LAB_OUT). verify checks a
report's seal, and with --signer who sealed it. Exit 0 done, 1 a report that does not verify, 2 a usage error.
`;

/** A usage error: one line on stderr, exit 2, nothing probed or written. */
class UsageError extends Error {}

/** The options of a probe run or of verify, parsed strictly: an unknown option or a stray argument is a UsageError. */
function parse(argv: readonly string[], verify: boolean): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const options = verify
    ? { signer: { type: 'string' as const }, help: { type: 'boolean' as const, short: 'h' } }
    : {
        out: { type: 'string' as const },
        'powercap-root': { type: 'string' as const },
        'nvml-library': { type: 'string' as const },
        'window-ms': { type: 'string' as const },
        help: { type: 'boolean' as const, short: 'h' },
      };
  try {
    const r = parseArgs({ args: [...argv], options, strict: true, allowPositionals: verify });
    return { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]);
  }
}

/** The command line. Returns the exit status. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`lab: ${e.message} (see --help)`);
    return 2;
  }
}

async function run(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'verify') {
    const { values, positionals } = parse(argv.slice(1), true);
    if (values['help']) {
      process.stdout.write(USAGE);
      return 0;
    }
    const [file, ...extra] = positionals;
    if (!file || extra.length) throw new UsageError('verify takes one report file');
    try {
      const signer = verifyReport(readFileSync(file), readFileSync(`${file}.cose`), values['signer'] as string | undefined);
      console.log(`OK: ${file} is sealed by ${signer}`);
      return 0;
    } catch (e) {
      console.error(`REFUSED: ${(e as Error).message}`);
      return 1;
    }
  }
  const { values } = parse(argv, false);
  if (values['help']) {
    process.stdout.write(USAGE);
    return 0;
  }
  const opt = (name: string, env: string): string | undefined => (values[name] as string | undefined) ?? process.env[env];
  const window = values['window-ms'] as string | undefined;
  if (window !== undefined && !/^[1-9][0-9]*$/.test(window)) throw new UsageError(`--window-ms must be a whole number of milliseconds, got ${window}`);
  const seedHex = process.env['JCP_LAB_SEED_HEX'];
  const { key, source } = labKey(seedHex ? seedFromHex(seedHex) : undefined);
  const powercap = opt('powercap-root', 'JCP_POWERCAP_ROOT');
  const nvml = opt('nvml-library', 'JCP_NVML_LIBRARY');
  const { report, summary } = await runLab({
    ...(powercap ? { powercap_root: powercap } : {}),
    ...(nvml ? { nvml_library: nvml } : {}),
    ...(window ? { window_ms: Number(window) } : {}),
  });
  const sealed = { ...report, signer: { did: key.did, key_source: source } };
  const dir = resolve(opt('out', 'JCP_LAB_OUT') ?? join('hardware-lab', 'reports'));
  mkdirSync(dir, { recursive: true });
  const stamp = new Date(Number(report['issued_s']) * 1000).toISOString().replace(/[:.]/g, '-');
  const file = join(dir, `${hostname().replace(/[^A-Za-z0-9_.-]/g, '_')}-${stamp}.json`);
  const bytes = Buffer.from(`${toJson(sealed)}\n`, 'utf8');
  writeFileSync(file, bytes);
  writeFileSync(`${file}.cose`, sealReport(bytes, key));
  for (const line of summary) console.log(line);
  console.log(`Report: ${file} (sealed: ${file}.cose, signer ${key.did}; key: ${source})`);
  console.log(`Verify: npx tsx hardware-lab/lab.ts verify ${file} --signer ${key.did}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then((code) => process.exit(code), (e) => {
    console.error(`lab: ${(e as Error).stack ?? e}`);
    process.exit(1);
  });
}
