// certify's progress line (harness/commands/progress.ts) and the clearing of a reused report folder
// (removeStaleReports): what they show and remove, from a record written the way the runner's reporter writes it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Progress, progressLine } from '../commands/progress.ts';
import { removeStaleReports } from '../commands/certify.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-progress-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** A stand-in terminal that keeps what is written to it. */
function sink(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { text: '', isTTY, write(c: string) { s.text += c; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

const test = (classes: string[], outcome: string, grade = 'spec') => JSON.stringify({ type: 'test', id: 'x', file: 'f', title: 't', clauses: ['jcp/7#x'], classes, level: 'MUST', grade, outcome }) + '\n';

describe('the progress line', () => {
  it('says done / total, a total still growing while files are collected, the class running, failures so far and the time', () => {
    expect(progressLine({ done: 3, total: 10, collected: false, failing: 0, running: undefined, elapsedMs: 900 })).toBe('  3/10+ tests · starting · 0 failing · 0s');
    expect(progressLine({ done: 412, total: 826, collected: true, failing: 2, running: 'jcp:C7', elapsedMs: 65_000 })).toBe('  412/826 tests · running jcp:C7 · 2 failing · 1m 05s');
  });

  it('follows the record as the reporter appends to it: counts, the asked-for class, and only what counts against the testee as failing', () => {
    const path = join(TMP, 'tests.jsonl');
    writeFileSync(path, '');
    const p = new Progress(path, sink(false), { byteContract: false }, ['jcp:C3']);
    appendFileSync(path, JSON.stringify({ type: 'files', files: 2 }) + '\n' + JSON.stringify({ type: 'collected', file: 'a', tests: 3 }) + '\n');
    appendFileSync(path, test(['jcp:C22', 'jcp:C3'], 'passed') + test(['jcp:C3'], 'failed'));
    let s = p.stop();
    expect(s).toMatchObject({ done: 2, total: 3, collected: false, failing: 1, running: 'jcp:C3' });
    // a byte-contract difference of a testee not claiming the byte contract, an open point, a neutral outcome: not failing
    appendFileSync(path, JSON.stringify({ type: 'collected', file: 'b', tests: 4 }) + '\n' + test(['jcp:C3'], 'failed', 'bytes') + test(['jcp:C3'], 'failed', 'open') + test(['jcp:C3'], 'not applicable') + test(['jcp:C3'], 'timeout', 'open'));
    s = p.stop();
    expect(s).toMatchObject({ done: 6, total: 7, collected: true, failing: 2 });
  });
});

describe('a reused report folder', () => {
  it('loses what a certify run wrote there, and only that: the expectation file, a transcript and other files stay', () => {
    const dir = join(TMP, 'report');
    mkdirSync(join(dir, 'allure-results'), { recursive: true });
    mkdirSync(join(dir, 'cases'), { recursive: true });
    mkdirSync(join(dir, 'transcript'), { recursive: true });
    for (const f of ['record.jsonl', 'tests.jsonl', 'junit.xml', 'summary.md', 'certificate.cose', 'runner.log', 'expectations.json', 'notes.txt', 'transcript/stream-1.jsonl', 'cases/seq-1.json', 'cases/README.md', 'allure-results/0a1b2c3d-0000-4000-8000-000000000000-result.json', 'allure-results/mine.txt']) {
      writeFileSync(join(dir, f), 'x');
    }
    const removed = removeStaleReports(dir);
    expect(removed).toEqual(['tests.jsonl', 'record.jsonl', 'junit.xml', 'summary.md', 'certificate.cose', 'runner.log', 'allure-results/ (1 file(s))', 'cases/ (1 file(s))']);
    expect(readdirSync(dir).sort()).toEqual(['allure-results', 'cases', 'expectations.json', 'notes.txt', 'transcript']);
    expect(readdirSync(join(dir, 'allure-results'))).toEqual(['mine.txt']);
    expect(readdirSync(join(dir, 'cases'))).toEqual(['README.md']);
    expect(existsSync(join(dir, 'transcript', 'stream-1.jsonl'))).toBe(true);
    expect(removeStaleReports(dir)).toEqual([]);
  });
});
