// scripts/exit-when-written.ts, how npm test and the kill matrix end: through a pipe read slowly (a runner's log, npm
// test reading the matrix), everything written before the exit arrives, and the exit code is the one asked for.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-exit-written-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Runs a program that writes `lines` numbered lines of 100 bytes to stdout, one to stderr, then exits with 3. */
function run(lines: number): Promise<{ out: string; err: string; code: number | null }> {
  const file = join(TMP, 'writer.ts');
  writeFileSync(
    file,
    [
      `import { exitWhenWritten } from ${JSON.stringify(join(ROOT, 'scripts', 'exit-when-written.ts'))};`,
      `for (let i = 0; i < ${lines}; i++) process.stdout.write(String(i).padStart(99, '.') + '\\n');`,
      `process.stderr.write('last words\\n');`,
      `exitWhenWritten(3);`,
      // a handle left open (a timer here, a pool in the matrix) does not keep the process from exiting
      `setInterval(() => {}, 1000);`,
    ].join('\n'),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    // the reader starts late, so the writer meets a full pipe and its writes queue
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stdout.resume();
    }, 300);
    child.on('close', (code) => resolve({ out, err, code }));
  });
}

describe('exiting once what was written has left (npm test, the kill matrix)', () => {
  it('a megabyte written to a pipe read late arrives whole, and the exit code is kept', async () => {
    const lines = 10_000;
    const r = await run(lines);
    expect(r.code).toBe(3);
    expect(r.err).toBe('last words\n');
    const got = r.out.split('\n').filter(Boolean);
    expect(got.length).toBe(lines);
    expect(got[lines - 1]).toBe(String(lines - 1).padStart(99, '.'));
  });
});
