// Self-test of the Python adapter kit (examples/python/): its own checks over the shipped vectors; `validate` over the
// two steps and the kit, exit status and the lines of the kit's five ops (harness/validate.ts prints one per op); the
// page's byte-for-byte exchange replayed (the requests are what the driver sends, the answers what the kit writes,
// each diag: line what its bytes say); the quoted code and CDDL still in their files; the kit's strict framing; and
// its cbor.check held to the suite's strict decoder (jcp §3, §11), code for code, over hostile inputs.
// Needs a python3 that imports cbor2 and nacl (python3-cbor2, python3-nacl). Without one it says so in one line and
// passes, unless JCP_REQUIRE_PYTHON_KIT=1 (.ci/run sets it after installing them), where it fails.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testeeTransport } from '../drivers/testee.ts';
import { cliPath } from './cli.ts';
import { encodeFrame } from '../protocol/framing.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';
import { decodeCanonical, encodeCanonical, fromHex, isJcpError, toHex, type CborValue } from '../oracle.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const KIT = join(ROOT, 'examples', 'python');
const PAGE = readFileSync(join(KIT, 'README.md'), 'utf8');
const KIT_OPS = ['identity.from-seed', 'identity.parse-did', 'ed25519.sign', 'ed25519.verify', 'cbor.check'];
const REQUIRED = process.env.JCP_REQUIRE_PYTHON_KIT === '1';

/** The first interpreter that imports both modules: $JCP_PYTHON, python3, then Debian's own (a pyenv python3 lacks them). */
function findPython(): string | undefined {
  for (const py of [process.env.JCP_PYTHON, 'python3', '/usr/bin/python3']) {
    if (py && spawnSync(py, ['-c', 'import cbor2, nacl'], { stdio: 'ignore' }).status === 0) return py;
  }
  return undefined;
}
const PY = findPython();

/** Runs the CLI's validate command against a Python program of the kit: exit status and everything printed. */
function validate(program: string): { status: number; out: string } {
  const r = spawnSync(process.execPath, [cliPath(), 'validate', '--testee', `${PY} ${join('examples', 'python', program)}`], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '' },
  });
  return { status: r.status ?? -1, out: `${r.stdout}\n${r.stderr}` };
}

/** The outcome printed for each op, by op name. */
function outcomes(out: string): Map<string, string> {
  const ms = out.split('\n').map((l) => /^([a-z0-9-]+\.[a-z0-9.-]+): (.*)$/.exec(l)).filter((m) => m !== null);
  return new Map(ms.map((m) => [m[1]!, m[2]!]));
}

/** The fenced block right after `<!-- kind: name -->` on the page, by name. */
function blocks(kind: string): Map<string, string> {
  const re = new RegExp(`<!-- ${kind}: (.+?) -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`, 'g');
  return new Map([...PAGE.matchAll(re)].map((m) => [m[1]!, m[2]!]));
}

/** RFC 8949 §8 diagnostic notation of a decoded item, maps in their encoded order. */
function diag(v: CborValue): string {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return `h'${toHex(v)}'`;
  if (Array.isArray(v)) return `[${v.map(diag).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${diag(k)}: ${diag(x)}`).join(', ')}}`;
  throw new Error(`no diagnostic notation here for ${String(v)}`);
}

/** A frame of the page: its hex lines (length, then body), and its diag: line. */
function pageFrame(name: string): { frame: Uint8Array; diag: string } {
  const text = blocks('exchange').get(name);
  if (text === undefined) throw new Error(`the page has no exchange block "${name}"`);
  const lines = text.trim().split('\n');
  const hex = lines.filter((l) => /^[0-9a-f]+$/.test(l)).join('');
  const d = lines.find((l) => l.startsWith('diag: '));
  if (d === undefined) throw new Error(`exchange block "${name}" has no diag: line`);
  return { frame: fromHex(hex), diag: d.slice('diag: '.length) };
}

const text = (s: string): number[] => [...Buffer.from(s, 'utf8')];

/** Runs the kit over `input` (raw bytes on stdin) to its end. */
function runKit(input: Uint8Array): { status: number; stdout: Uint8Array; stderr: string } {
  const r = spawnSync(PY!, [join(KIT, 'jcp_testee.py')], { input, timeout: 30_000 });
  return { status: r.status ?? -1, stdout: new Uint8Array(r.stdout), stderr: r.stderr.toString('utf8') };
}

if (PY === undefined) {
  it(`python kit: no python3 imports cbor2 and nacl (apt-get install python3-cbor2 python3-nacl)${REQUIRED ? '' : '; not run'}`, () => {
    expect(REQUIRED, 'JCP_REQUIRE_PYTHON_KIT=1 asks for the Python kit to be checked').toBe(false);
  });
} else {
  describe('the Python adapter kit (examples/python/)', () => {
    it('selftest.py agrees with the shipped BLAKE3, did:key and CBOR vectors', () => {
      const r = spawnSync(PY, [join(KIT, 'selftest.py'), join(ROOT, 'vectors', 'external')], { encoding: 'utf8', timeout: 60_000 });
      expect(r.stdout + r.stderr).toMatch(/^ok {3}BLAKE3: 35 cases.*\nok {3}did:key: .*\nok {3}CBOR: .*\n$/);
      expect(r.status).toBe(0);
    });

    it('validate: the kit exits 0 and its five ops conform, with no finding or warning against them', () => {
      const { status, out } = validate('jcp_testee.py');
      const got = outcomes(out);
      for (const op of KIT_OPS) {
        expect(got.get(op), op).toMatch(/^conforms/);
        expect(out.split('\n').filter((l) => l.startsWith(`✗ ${op}:`) || l.startsWith(`! ${op}:`)), op).toEqual([]);
      }
      expect(out).not.toContain('BROKE THE PROTOCOL');
      expect(out).toMatch(/^hello: jcp-python-kit 0\.1\.0 speaks jcp-testee\/1/m);
      expect(status, out).toBe(0);
    });

    it("validate: the page's output of each step says what validate says of the five ops", () => {
      const pasted = blocks('validate');
      expect([...pasted.keys()]).toEqual(['steps/step1_hello.py', 'steps/step2_one_op.py', 'jcp_testee.py']);
      for (const [program, text] of pasted) {
        const { status, out } = validate(program);
        expect(status, `${program}\n${out}`).toBe(0);
        const got = outcomes(out);
        const page = outcomes(text);
        for (const op of KIT_OPS) expect(`${op}: ${got.get(op)}`, program).toBe(`${op}: ${page.get(op)}`);
      }
    });

    it('the exchange on the page: the requests are what the driver sends, the answers what the kit writes', () => {
      const hello = pageFrame('hello request');
      const refusal = pageFrame('refusal request');
      const answers = [pageFrame('hello answer'), pageFrame('refusal answer')];
      // harness/drivers/testee.ts: the handshake is the first request of a fresh process, seq 1
      expect(toHex(hello.frame)).toBe(toHex(encodeFrame({ seq: 1, op: 'hello', args: { protocol: PROTOCOL_VERSION, suite: 'jcp-conformance' } })));
      for (const f of [hello, refusal, ...answers]) {
        const len = new DataView(f.frame.buffer, f.frame.byteOffset).getUint32(0, false);
        expect(len).toBe(f.frame.length - 4);
        expect(diag(decodeCanonical(f.frame.subarray(4)))).toBe(f.diag);
      }
      const r = runKit(Uint8Array.from([...hello.frame, ...refusal.frame]));
      expect(toHex(r.stdout)).toBe(answers.map((a) => toHex(a.frame)).join(''));
      expect(r.status, r.stderr).toBe(0);
    });

    it('the code and CDDL the page quotes are still in their files', () => {
      const quotes = blocks('quote');
      expect([...quotes.keys()]).toEqual(['steps/step1_hello.py', 'steps/step2_one_op.py']);
      for (const [file, text] of quotes) expect(readFileSync(join(KIT, file), 'utf8'), file).toContain(text);
      const cddl = new Set(readFileSync(join(ROOT, 'harness', 'protocol', 'testee.cddl'), 'utf8').split('\n'));
      const quoted = [...PAGE.matchAll(/```cddl\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trimEnd().split('\n'));
      expect(quoted.length).toBeGreaterThan(7);
      for (const line of quoted) expect(cddl.has(line), line).toBe(true);
    });

    it('the kit ends at a request frame over 1 MiB or with a non-canonical body, saying why on stderr', () => {
      const over = runKit(Uint8Array.of(0x00, 0x10, 0x00, 0x01));
      expect(over.stderr).toMatch(/over the 1048576-byte cap/);
      expect(over.status).not.toBe(0);
      // {"seq": 1, "op": "hello", "args": {}}: "seq" before "op" is out of jcp §3 order (length first)
      const body = [0xa3, 0x63, ...text('seq'), 0x01, 0x62, ...text('op'), 0x65, ...text('hello'), 0x64, ...text('args'), 0xa0];
      const unsorted = runKit(Uint8Array.of(0, 0, 0, body.length, ...body));
      expect(unsorted.stdout.length).toBe(0);
      expect(unsorted.stderr).toMatch(/not canonical det-CBOR \(ERR_CBOR_UNSORTED_KEYS\)/);
      expect(unsorted.status).not.toBe(0);
    });

    describe('cbor.check against the suite strict decoder (jcp §3, §11)', () => {
      const transport = testeeTransport(`${PY} ${join(KIT, 'jcp_testee.py')}`, { cwd: ROOT });
      afterAll(() => transport.close());
      const deep = (n: number): number[] => [...Array<number>(n).fill(0x81), 0x00];
      const inputs: Array<[string, number[]]> = [
        ['canonical map: 24 and "a" (2 bytes each, bytewise), then "bb"', [0xa3, 0x18, 0x18, 0x03, 0x61, 0x61, 0x01, 0x62, 0x62, 0x62, 0x02]],
        ['int keys: -1 (20) sorts before 24 (18 18)', [0xa2, 0x20, 0x01, 0x18, 0x18, 0x02]],
        ['int keys bytewise, not length-first', [0xa2, 0x18, 0x18, 0x02, 0x20, 0x01]],
        ['keys "b", "aa" (length first)', [0xa2, 0x61, 0x62, 0x01, 0x62, 0x61, 0x61, 0x02]],
        ['keys "aa", "b"', [0xa2, 0x62, 0x61, 0x61, 0x02, 0x61, 0x62, 0x01]],
        ['duplicate key', [0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02]],
        ['array and map keys', [0xa2, 0x80, 0x01, 0xa0, 0x02]],
        ['map key a map, nested', [0xa1, 0xa1, 0x01, 0x02, 0x03]],
        ['byte-string key before text key', [0xa2, 0x41, 0x00, 0x01, 0x61, 0x00, 0x02]],
        ['0 in a 1-byte head', [0x18, 0x00]],
        ['255 in a 2-byte head', [0x19, 0x00, 0xff]],
        ['a length in a 1-byte head', [0x58, 0x01, 0x00]],
        ['2^32 in an 8-byte head (shortest)', [0x1b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]],
        ['2^32 - 1 in an 8-byte head', [0x1b, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff]],
        ['-2^64', [0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]],
        ['empty input', []],
        ['a lone break', [0xff]],
        ['indefinite byte string', [0x5f, 0x41, 0x00, 0xff]],
        ['reserved additional info 28 (uint)', [0x1c]],
        ['reserved additional info 30 (array)', [0x9e]],
        ['reserved additional info 29 (major 7)', [0xfd]],
        ['half float', [0xf9, 0x3c, 0x00]],
        ['1-byte simple value', [0xf8, 0x20]],
        ['simple value 16', [0xf0]],
        ['undefined', [0xf7]],
        ['tag 18 (COSE_Sign1), not allowed in cbor.check', [0xd2, 0x80]],
        ['tag 1 in a 1-byte head, not shortest', [0xd8, 0x01, 0x00]],
        ['trailing byte', [0x00, 0x00]],
        ['truncated 2-byte head', [0x19, 0x01]],
        ['text longer than the input', [0x65, 0x61]],
        ['array declaring more items than bytes left', [0x9a, 0x7f, 0xff, 0xff, 0xff, 0x00]],
        ['map cut after a key', [0xa1, 0x61, 0x61]],
        ['overlong UTF-8', [0x62, 0xc0, 0xaf]],
        ['a UTF-16 surrogate in UTF-8', [0x63, 0xed, 0xa0, 0x80]],
        ['a byte order mark is text', [0x63, 0xef, 0xbb, 0xbf]],
        ['non-ASCII text', [0x62, ...text('é')]],
        ['64 arrays deep', deep(64)],
        ['65 arrays deep', deep(65)],
        ['an error in a nested map value', [0xa1, 0x61, 0x61, 0x81, 0x18, 0x01]],
        ['empty containers and strings', [0x84, 0x80, 0xa0, 0x40, 0x60]],
      ];
      for (const [what, bytes] of inputs) {
        it(`${what}: ${toHex(Uint8Array.from(bytes)) || '(empty)'}`, async () => {
          const input = Uint8Array.from(bytes);
          let want: string;
          try {
            want = `ok ${toHex(encodeCanonical(decodeCanonical(input)))}`;
          } catch (e) {
            if (!isJcpError(e)) throw e;
            want = `refused ${e.code}`;
          }
          const r = await transport.request('cbor.check', { bytes: input });
          const ok = r.get('ok') as Map<string, CborValue> | undefined;
          const got = ok ? `ok ${toHex(ok.get('canonical') as Uint8Array)}` : `refused ${(r.get('error') as Map<string, CborValue>).get('code') as string}`;
          expect(got).toBe(want);
        });
      }
    });
  });
}
