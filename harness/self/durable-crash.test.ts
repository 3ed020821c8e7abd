// The durable crash loop (harness/drivers/process-control.ts, graded by harness/conformance/durable.test.ts) is itself
// tested here: it passes the faithful reference behind a shell wrapper and leaves no process of any group it started;
// it sees a process a kill of the wrapper alone would leave; and testees that break one rule of jcp §4.11 on purpose
// (./durable-faults/testee.ts) fail the check of the clause they break — forgetting an acknowledged allow fails
// record-allowed-durably, deciding a recorded request again on restart fails re-establish-before-deciding alone.
// Last, the reference testee's durable.open on a path that cannot hold a record, or on a record that lost its content:
// a typed answer, and the testee goes on answering; and a torn last write is said in its answer's torn_tail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledScript, CRASH_CHECKS, CRASH_STEWARD, groupMembers, referenceTesteeCommand, runDurableCrash, shellQuote, startTestee, type CrashResult } from '../drivers/process-control.ts';
import { Implementation, TesteeError } from '../implementation.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-durable-self-'));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The fault testee as a plain `node` process; `wrapped`: behind a shell that stays its parent (no exec). */
async function faultTestee(fault: '' | 'forget-acknowledged' | 'redecide-last', wrapped = false): Promise<string> {
  const cmd = `${shellQuote(process.execPath)} ${shellQuote(await bundledScript('harness/self/durable-faults/testee.ts', 'durable-faults'))} ${fault}`;
  return wrapped ? `${cmd}; exit $?` : cmd;
}

const run = async (fault: '' | 'forget-acknowledged' | 'redecide-last', kills: number, wrapped = false): Promise<CrashResult> =>
  runDurableCrash({ command: await faultTestee(fault, wrapped), dir: fs.mkdtempSync(path.join(dir, `${fault || 'faithful'}-`)), kills, seed: 0xc26 });

describe('the durable crash loop', () => {
  it('passes the faithful reference behind a shell wrapper, and every process group it started is empty afterwards', async () => {
    const r = await run('', 16, true);
    expect(CRASH_CHECKS.acknowledged.problems(r)).toEqual([]);
    expect(CRASH_CHECKS.reestablished.problems(r)).toEqual([]);
    expect(r.kills).toBe(16);
    expect(r.groups.length).toBeGreaterThan(16);
    expect(r.groups.filter((g) => groupMembers(g).length > 0)).toEqual([]);
  }, 120_000);

  it.runIf(process.platform === 'linux')('a kill of the wrapper alone leaves its child running, which the group check sees; the group kill leaves nothing', async () => {
    const t = startTestee(await faultTestee('', true));
    await t.transport.hello();
    const members = groupMembers(t.pid);
    expect(members).toContain(t.pid);
    expect(members.length).toBe(2); // the shell and the node it started
    process.kill(t.pid, 'SIGKILL'); // the shell only, as child.kill() would
    for (let i = 0; i < 400 && groupMembers(t.pid).includes(t.pid); i++) await new Promise((r) => setTimeout(r, 5));
    // the shell is gone; its child, left running by a kill of the shell alone, is still in the group (on a loaded
    // machine it can have ended by now on its own, so at most one member is left, never the shell)
    const orphans = groupMembers(t.pid);
    expect(orphans.length).toBeLessThanOrEqual(1);
    expect(orphans).not.toContain(t.pid);
    expect(await t.kill()).toEqual([]);
    expect(groupMembers(t.pid)).toEqual([]);
  }, 60_000);

  it('a testee that forgets an acknowledged allow on restart fails record-allowed-durably', async () => {
    const r = await run('forget-acknowledged', 16);
    expect(r.findings.map((f) => f.kind)).toContain('lost');
    expect(CRASH_CHECKS.acknowledged.clauses).toContain('jcp/4.11#record-allowed-durably');
    expect(CRASH_CHECKS.acknowledged.problems(r).filter((p) => p.startsWith('lost: '))).not.toEqual([]);
    // spend the record lost is spend the restart did not re-establish either
    expect(CRASH_CHECKS.reestablished.problems(r)).not.toEqual([]);
  }, 120_000);

  it('a testee that decides a recorded request again on restart fails re-establish-before-deciding, and not record-allowed-durably', async () => {
    const r = await run('redecide-last', 16);
    // more spend than the record holds; where an in-flight decision's fate was open, sometimes between the two states
    // (neither lost nor a whole extra decision on top of both: a mismatch), never below every state
    const kinds = r.findings.map((f) => f.kind);
    expect(kinds).toContain('excess');
    expect(kinds).not.toContain('lost');
    expect(CRASH_CHECKS.reestablished.clauses).toEqual(['jcp/4.11#re-establish-before-deciding']);
    expect(CRASH_CHECKS.reestablished.problems(r).filter((p) => p.startsWith('excess: '))).not.toEqual([]);
    expect(CRASH_CHECKS.acknowledged.problems(r)).toEqual([]);
  }, 120_000);
});

describe("the reference testee's durable.open where no record can be opened", () => {
  it('answers a typed error naming the path (a directory, a missing folder, a device, an emptied record) and goes on answering', async () => {
    const t = startTestee(await referenceTesteeCommand());
    try {
      const impl = new Implementation(t.transport);
      const d = fs.mkdtempSync(path.join(dir, 'bad-paths-'));
      const emptied = path.join(d, 'emptied.rec');
      fs.writeFileSync(emptied, '');
      const cases: [string, string][] = [
        [d, 'ERR_RECORD_IO'],
        [path.join(d, 'no-such-folder', 'decisions.rec'), 'ERR_RECORD_IO'],
        [emptied, 'ERR_RECORD_CORRUPT'],
      ];
      if (fs.existsSync('/dev/null')) cases.push(['/dev/null', 'ERR_RECORD_IO']);
      for (const [p, code] of cases) {
        const e = await impl.openDurable(p, 'holder', CRASH_STEWARD.seed).then(() => undefined, (x: unknown) => x);
        expect(e instanceof TesteeError && e.code, p).toBe(code);
        expect((e as Error).message, p).toContain(p);
      }
      // the same process answers the next request: a record on a good path opens
      const good = path.join(d, 'decisions.rec');
      const ok = await impl.openDurable(good, 'holder', CRASH_STEWARD.seed);
      expect(ok.replayed).toBe(0n);
      expect(ok.tornTail).toBeUndefined();
      await ok.close();
      // a write torn inside its 8-byte length header (5 bytes of it): said in torn_tail, then cut
      const size = fs.statSync(good).size;
      fs.appendFileSync(good, Uint8Array.of(0, 0, 0, 64, 0x5a));
      const reopened = await impl.openDurable(good, 'holder', CRASH_STEWARD.seed);
      expect(reopened.tornTail?.offset).toBe(BigInt(size));
      expect(reopened.tornTail?.length).toBe(5n);
      expect(reopened.tornTail?.summary).toMatch(/\S/);
      expect(fs.statSync(good).size).toBe(size);
      await reopened.close();
      expect(await t.kill()).toEqual([]);
    } finally {
      await t.kill();
    }
  }, 60_000);
});
