// The wire endpoint over impl/durable's point (jcp §11 "That holds across a restart"): a request decided before a
// restart, presented again after it, gets its first response byte for byte and is not debited again.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { toHex } from '../bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { openDurablePoint } from '../durable/point.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { decodeWireReply, encodeWireRequest, signWireRequest } from './codec.ts';
import { durableWireGate, tornTailLine } from './durable-gate.ts';
import { createWireServer } from './server.ts';

const alice = keyPairFromSeed(deriveSeed('alice'));
const bob = keyPairFromSeed(deriveSeed('bob'));
const steward = keyPairFromSeed(deriveSeed('steward'));
const resource = contentId({ resource: 'tool:search' });
const T0 = 1_700_000_000n;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the wire over a durable point', () => {
  it('a repeat after a restart gets the first response unchanged and no second debit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-wire-durable-'));
    dirs.push(dir);
    const file = path.join(dir, 'record');
    const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(4) });
    const body = encodeWireRequest(
      signWireRequest({ frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'a' }) }, chain: [sg], caller: bob.did, cost: { uj: 300n, provenance: 'HwShunt' }, now: T0 }, bob),
    );
    const p1 = openDurablePoint({ path: file, steward, holder: 'wire-test' });
    const first = await createWireServer({ gate: durableWireGate(p1, steward), now_s: () => T0 }).handle(body);
    const r = decodeWireReply(first);
    expect(r.kind === 'response' && verifyReceipt(r.response.receipt, { steward: steward.did }).core.budget_remaining_uj).toBe(700n);
    p1.close();
    const p2 = openDurablePoint({ path: file, steward, holder: 'wire-test' });
    try {
      expect(p2.spent(grantId(sg.grant))).toBe(300n);
      const again = await createWireServer({ gate: durableWireGate(p2, steward), now_s: () => T0 + 5n }).handle(body);
      expect(toHex(again)).toBe(toHex(first));
      expect(p2.spent(grantId(sg.grant))).toBe(300n);
    } finally {
      p2.close();
    }
  });

  it('says once, when the gate is made, what torn tail the record lost on open; says nothing when there was none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-wire-durable-'));
    dirs.push(dir);
    const file = path.join(dir, 'record');
    const p1 = openDurablePoint({ path: file, steward, holder: 'wire-test' });
    const lines: string[] = [];
    durableWireGate(p1, steward, undefined, (l) => lines.push(l));
    expect(lines).toEqual([]);
    expect(tornTailLine(p1)).toBeUndefined();
    p1.close();
    // 5 bytes of an append's length header, a crash cut short past the acknowledged (anchored) end
    fs.appendFileSync(file, new Uint8Array(5).fill(0x5a));
    const p2 = openDurablePoint({ path: file, steward, holder: 'wire-test' });
    try {
      durableWireGate(p2, steward, undefined, (l) => lines.push(l));
      expect(lines.length).toBe(1);
      expect(lines[0]).toContain(file);
      expect(lines[0]).toContain('torn entry of 5 byte(s)');
      expect(lines[0]).toBe(tornTailLine(p2));
    } finally {
      p2.close();
    }
  });

  it('the endpoint (main.ts) says a torn tail on stderr and listens; a record it cannot open it says with its code, exiting 1', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-wire-main-'));
    dirs.push(dir);
    const main = path.join(ROOT, 'impl', 'wire', 'main.ts');
    const refused = spawnSync(process.execPath, ['--import', 'tsx', main, '--record', dir], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('ERR_RECORD_IO');
    expect(refused.stderr).toContain(dir);
    const file = path.join(dir, 'record');
    openDurablePoint({ path: file, steward, holder: 'wire-test' }).close();
    fs.appendFileSync(file, new Uint8Array(3));
    const child = spawn(process.execPath, ['--import', 'tsx', main, `unix:${path.join(dir, 'sock')}`, '--record', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    try {
      // both lines, each on its own pipe: the torn tail on stderr, then "listening" on stdout
      await new Promise<void>((resolve, reject) => {
        const both = () => out.includes('\n') && err.includes('torn entry') && resolve();
        child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d), both()));
        child.stderr.setEncoding('utf8').on('data', (d: string) => ((err += d), both()));
        child.on('exit', (code) => reject(new Error(`the endpoint exited ${code}: ${err}`)));
      });
      expect(out).toMatch(/^listening unix:/);
      expect(err).toContain(`record ${file}: a torn entry of 3 byte(s)`);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
