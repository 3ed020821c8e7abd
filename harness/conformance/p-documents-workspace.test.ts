// The agent workspace (jouleclaw §11), through the implementation under test (suite-defined profile
// jouleclaw:P-WORKSPACE; operations in harness/protocol/profiles/documents.md): paths refused on write, and the
// verifier of a SignedWorkspaceManifest checking the owner's handle against its key (§8) AND the signature.
//
// The signed manifests the verifier is given are laid out here: §11's fields, a canonical JSON written below (members
// sorted, no whitespace), signed with node:crypto's Ed25519 (the oracle's nodeEd25519). §11 names no canonical JSON
// form, so every manifest here holds only what every canonical form writes alike: ASCII names, lowercase hex,
// integers. Whether a refused path was refused is the spec grade; its code, ERR_BAD_ARGUMENT, is the byte contract;
// a handle that is not its key's did:key may be refused (the suite's code: ERR_AGENT_HANDLE_MISMATCH) or read invalid.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt, contract } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { alice, bob } from '../fixtures.ts';
import { didFromPublicKey, nodeEd25519 } from '../oracle.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';

const PATHS = 'jouleclaw/11#reject-bad-paths';
const VERIFY = 'jouleclaw/11#verify-owner-and-signature';
const MAY_ATTACH = 'jouleclaw/11#workspace-may-attach';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const utf8 = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b3 = (b: Uint8Array): string => hex(nobleBlake3(b));
function canon(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}

interface Manifest {
  jc_workspace: string;
  owner: { handle: string; public_key: string };
  entries: { path: string; content_hash: string; size: number; kind: string }[];
}

async function newWorkspace(seed: Uint8Array): Promise<string> {
  return (await implementation()._call('workspace.new', { owner_seed: seed })).get('workspace') as string;
}
const write = (workspace: string, path: string, content: Uint8Array): Promise<unknown> => implementation()._call('workspace.write', { workspace, path, content });
async function manifestOf(workspace: string): Promise<{ manifest: Manifest; manifest_hash: string; signature: Uint8Array }> {
  const r = await implementation()._call('workspace.manifest', { workspace });
  return { manifest: JSON.parse(r.get('manifest_json') as string) as Manifest, manifest_hash: r.get('manifest_hash') as string, signature: r.get('signature') as Uint8Array };
}
const pathsOf = async (workspace: string): Promise<string[]> => (await manifestOf(workspace)).manifest.entries.map((e) => e.path);

/** A §11 manifest owned by (handle, public key), holding one 17-byte note. */
const manifest = (handle: string, publicKey: Uint8Array, size = 17): Manifest => {
  const note = utf8.encode('seventeen bytes!\n');
  return { jc_workspace: 'workspace/1', owner: { handle, public_key: hex(publicKey) }, entries: [{ path: 'notes/x.md', content_hash: b3(note), size, kind: 'text' }] };
};
const signed = (m: Manifest, seed: Uint8Array): Uint8Array => nodeEd25519.sign(seed, utf8.encode(canon(m as unknown as Json)));
/** workspace.verify: its verdict, or the code it refused with. */
const verify = async (m: Manifest, signature: Uint8Array): Promise<string> => {
  try {
    return (await implementation()._call('workspace.verify', { manifest_json: canon(m as unknown as Json), signature })).get('verdict') as string;
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
};
/** A handle that is not its key's did:key is not accepted: refused (the suite's code, byte contract) or invalid. */
const expectHandleRejected = (got: string, what: string): void => {
  expect(got, `${what}: not accepted`).not.toBe('valid');
  if (got !== 'invalid') contract(got === 'ERR_AGENT_HANDLE_MISMATCH', `${what}: refused with ${got}; the suite's code for it is ERR_AGENT_HANDLE_MISMATCH`);
};

const BAD_PATHS = ['', '/', '/abs', '/notes/x.md', 'a//b', 'a/', '//', '.', '..', './a', 'a/./b', 'a/.', '../x', 'a/../b', 'a/..', 'a\u0000b', '\u0000', 'notes/x.md\u0000'];
const GOOD_PATHS = ['notes/x.md', 'a', 'a/b/c', 'x.y-z_1', 'v1.2/a-b_c.txt'];

describe('jouleclaw §11 path normalisation on write', () => {
  clauseIt([PATHS], 'absolute and empty paths, empty, . and .. segments and NUL bytes are refused on write, and nothing is written', async () => {
    const w = await newWorkspace(alice.seed);
    for (const p of GOOD_PATHS) await write(w, p, utf8.encode(`content of ${p}`));
    const before = await pathsOf(w);
    expect([...before].sort(), 'the good paths were written').toEqual([...GOOD_PATHS].sort());
    for (const p of BAD_PATHS) await expectCode(write(w, p, utf8.encode('x')), 'ERR_BAD_ARGUMENT', `path ${JSON.stringify(p)}`);
    expect(await pathsOf(w), 'no refused path reached the manifest').toEqual(before);
  });

  clauseIt([PATHS], 'a path is refused exactly when it is empty or absolute or has an empty, . or .. segment or a NUL (property)', async () => {
    const goodSegment = fc.stringMatching(/^[a-z0-9_][a-z0-9_.-]{0,5}$/);
    const badSegment = fc.constantFrom('', '.', '..', '\u0000', 'a\u0000', '\u0000.');
    const segments = fc.array(fc.oneof({ weight: 4, arbitrary: goodSegment }, { weight: 1, arbitrary: badSegment }), { minLength: 0, maxLength: 5 });
    const w = await newWorkspace(bob.seed);
    await assertProperty(
      fc.asyncProperty(segments, fc.boolean(), async (segs, absolute) => {
        const path = (absolute ? '/' : '') + segs.join('/');
        const bad = path === '' || absolute || path.includes('\u0000') || segs.some((s) => s === '' || s === '.' || s === '..');
        const got = await codeOf(write(w, path, utf8.encode(path)));
        if (bad) {
          expect(got, `${JSON.stringify(path)} refused`).not.toBe('accepted');
          contract(got === 'ERR_BAD_ARGUMENT', `${JSON.stringify(path)} refused with ${got}; the suite's code for it is ERR_BAD_ARGUMENT`);
          expect(await pathsOf(w), `${JSON.stringify(path)} never in the manifest`).not.toContain(path);
        } else {
          expect(got, `${JSON.stringify(path)} accepted`).toBe('accepted');
          expect(await pathsOf(w), `${JSON.stringify(path)} in the manifest`).toContain(path);
        }
      }),
      fcParams(60),
    );
  });
});

describe('jouleclaw §11 verifying a SignedWorkspaceManifest', () => {
  clauseIt([VERIFY], 'the owner\'s handle is checked against its key AND the signature is checked: either one wrong is not accepted', async () => {
    const good = manifest(alice.did, alice.publicKey);
    expect(await verify(good, signed(good, alice.seed)), 'handle, key and signature all alice\'s').toBe('valid');
    // the signature verifies under the embedded key, but the handle names another key
    const misnamed = manifest(bob.did, alice.publicKey);
    expectHandleRejected(await verify(misnamed, signed(misnamed, alice.seed)), 'bob\'s handle over alice\'s key, signed by alice');
    // the handle is its key's, the signature is another key's
    expect(await verify(good, signed(good, bob.seed)), 'alice\'s manifest signed by bob').toBe('invalid');
    const sig = signed(good, alice.seed);
    const flipped = sig.slice();
    flipped[10]! ^= 0x01;
    expect(await verify(good, flipped), 'a signature with one bit flipped').toBe('invalid');
    // the signature covers the manifest: one entry's size changed after signing
    expect(await verify(manifest(alice.did, alice.publicKey, 18), sig), 'the manifest changed after signing').toBe('invalid');
    // the handle and key of bob, the signature of alice over that manifest
    const bobs = manifest(bob.did, bob.publicKey);
    expect(await verify(bobs, signed(bobs, alice.seed)), 'bob\'s manifest signed by alice').toBe('invalid');
  });

  clauseIt([VERIFY], 'over random owners: accepted only with the handle of the embedded key and that key\'s signature (property)', async () => {
    const seeds = fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 })).filter(([x, y]) => hex(x) !== hex(y));
    await assertProperty(
      fc.asyncProperty(seeds, async ([s1, s2]) => {
        const k1 = nodeEd25519.publicKeyFromSeed(s1);
        const k2 = nodeEd25519.publicKeyFromSeed(s2);
        const own = manifest(didFromPublicKey(k1), k1);
        expect(await verify(own, signed(own, s1)), 'own handle, own key, own signature').toBe('valid');
        expect(await verify(own, signed(own, s2)), 'another key\'s signature').toBe('invalid');
        const misnamed = manifest(didFromPublicKey(k2), k1);
        expectHandleRejected(await verify(misnamed, signed(misnamed, s1)), 'another key\'s handle');
      }),
      fcParams(20),
    );
  });
});

describe('jouleclaw §11 the manifest a workspace writes (a MAY feature: reported, never failed)', () => {
  clauseIt([MAY_ATTACH], 'entries sorted by path, content addressed, the manifest hash over its canonical JSON, signed by its owner; the same state, the same hash', async () => {
    const files = ['zeta/a', 'alpha', 'beta_b/c', 'm0/n1/o2', 'b', 'beta/z'].map((p, i) => ({ path: p, content: utf8.encode(`${p}:${'x'.repeat(i)}`) }));
    const w1 = await newWorkspace(alice.seed);
    const w2 = await newWorkspace(alice.seed);
    for (const f of files) await write(w1, f.path, f.content);
    for (const f of [...files].reverse()) await write(w2, f.path, f.content);
    const one = await manifestOf(w1);
    const two = await manifestOf(w2);
    // the paths hold only characters above "/", so string order and segment-wise order agree
    expect(one.manifest.entries.map((e) => e.path), 'sorted lexically by path').toEqual(files.map((f) => f.path).sort());
    for (const f of files) {
      const e = one.manifest.entries.find((x) => x.path === f.path)!;
      expect(e.content_hash, `${f.path}: BLAKE3 hex of its bytes`).toBe(b3(f.content));
      expect(e.size, `${f.path}: its size`).toBe(f.content.length);
    }
    expect(one.manifest.owner, 'the owner embedded with its key').toEqual({ handle: alice.did, public_key: hex(alice.publicKey) });
    const bytes = utf8.encode(canon(one.manifest as unknown as Json));
    expect(one.manifest_hash, 'BLAKE3 over its canonical JSON').toBe(b3(bytes));
    expect(nodeEd25519.verify(one.signature, bytes, alice.publicKey), 'signed by its owner over the canonical bytes').toBe(true);
    expect(two.manifest_hash, 'identical workspace state, identical manifest hash').toBe(one.manifest_hash);
    expect(hex(two.signature), 'identical hash, identical signature').toBe(hex(one.signature));
  });
});
