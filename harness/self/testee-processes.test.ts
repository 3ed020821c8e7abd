// The testee driver (harness/drivers/testee.ts) and a testee's processes: a testee that hangs is killed together with
// everything it started — through a wrapper shell that forks rather than execs, and a child of its own — so no
// process outlives the request that timed out; a testee that exits while a child of its own still holds stdout open
// is reported as a crash, not as a timeout; and a handshake never overlaps a request still in flight.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testeeTransport } from '../drivers/testee.ts';
import { TesteeFailure } from '../implementation.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-testee-processes-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Whether process `pid` still exists (signal 0 probes without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `pids` are all gone, or `ms` have passed; the pids still alive then. */
async function survivors(pids: number[], ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A testee program that writes its pid and a child's pid to `pidFile`, then: `hang` answers nothing; `exit` exits at
 * once while the child (which inherited stdout) lives on.
 */
function testeeScript(pidFile: string, mode: 'hang' | 'exit'): string {
  const file = join(TMP, `testee-${mode}.cjs`);
  writeFileSync(
    file,
    `const { spawn } = require('node:child_process');
const fs = require('node:fs');
const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
fs.writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify([process.pid, child.pid]));
${mode === 'hang' ? 'process.stdin.resume(); setTimeout(() => {}, 600000);' : 'process.exit(0);'}
`,
  );
  return file;
}

async function pidsFrom(file: string): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as number[];
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`the testee never wrote ${file}`);
}

describe('a testee and the processes it starts', () => {
  it('a hung testee behind a wrapper shell is killed with its child when its request times out: no process is left', async () => {
    const pidFile = join(TMP, 'hang.json');
    // `sh -c '…; true'` keeps the shell alive as the parent (no exec), as a wrapper script does
    // long enough for node to start and write its pids on a loaded machine (killed first, it would write none)
    const t = testeeTransport(`node ${testeeScript(pidFile, 'hang')}; true`, { timeoutMs: 4000, startupTimeoutMs: 4000 });
    const err = await t.hello().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TesteeFailure);
    expect((err as TesteeFailure).kind).toBe('timeout');
    const pids = await pidsFrom(pidFile);
    expect(pids).toHaveLength(2);
    expect(await survivors(pids)).toEqual([]);
    await t.close();
  });

  it('a testee that exits while its child still holds stdout open is a crash, reported as one, and the child is killed', async () => {
    const pidFile = join(TMP, 'exit.json');
    const t = testeeTransport(`node ${testeeScript(pidFile, 'exit')}`, { timeoutMs: 5000, startupTimeoutMs: 5000 });
    const err = await t.hello().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TesteeFailure);
    expect((err as TesteeFailure).kind).toBe('crash');
    expect((err as TesteeFailure).message).toMatch(/the testee exited \(code 0\)/);
    expect(await survivors(await pidsFrom(pidFile))).toEqual([]);
    await t.close();
  });

  it('a handshake asked for while a request is in flight waits for it: both are answered, in order', async () => {
    const t = testeeTransport(`node ${join(import.meta.dirname, '..', '..', 'bin', 'jcp-conformance.js')} reference-testee`, { timeoutMs: 30_000 });
    const order: string[] = [];
    const [r, info] = await Promise.all([
      t.request('cbor.check', { bytes: new Uint8Array([0xa0]) }).then((x) => (order.push('request'), x)),
      t.hello().then((x) => (order.push('hello'), x)),
    ]);
    expect(r.has('ok') || r.has('error')).toBe(true);
    expect(info.name).toBe('jcp-reference');
    expect(order).toEqual(['request', 'hello']);
    await t.close();
  });
});
