// Unit tests of the agent workspace (impl/jouleclaw/workspace.ts, jouleclaw §11).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import { defaultEd25519, deriveSeed } from '../identity/ed25519.ts';
import { canonicalJson } from './contract-json.ts';
import { agentHandle } from './identity.ts';
import { checkWorkspacePath, manifestHash, verifySignedWorkspaceManifest, Workspace } from './workspace.ts';

const utf8 = new TextEncoder();
// seeds derived inside the tests (derived at import, BLAKE3's code would count as static to Stryker)
const A = () => deriveSeed('workspace-unit:a');
const B = () => deriveSeed('workspace-unit:b');

describe('jouleclaw §11 workspace', () => {
  it('refuses absolute and empty paths, empty, . and .. segments and NUL; accepts relative paths', () => {
    for (const p of ['', '/a', 'a//b', 'a/', '.', '..', 'a/./b', 'a/../b', 'a\u0000']) expect(() => checkWorkspacePath(p), JSON.stringify(p)).toThrow(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
    for (const p of ['a', 'notes/x.md', 'a/b.c/d']) expect(checkWorkspacePath(p)).toBe(p);
  });
  it('a manifest sorted by path, content addressed and deduplicated, hashed and signed over its canonical JSON', () => {
    const w = new Workspace(A());
    w.write('b/x', utf8.encode('same'));
    w.write('a', utf8.encode('same'));
    w.write('c', Uint8Array.of(0xff));
    const { manifest, signature } = w.sign();
    expect(manifest.entries.map((e) => [e.path, e.kind, e.size])).toEqual([['a', 'text', 4], ['b/x', 'text', 4], ['c', 'binary', 1]]);
    expect(manifest.entries[0]!.content_hash).toBe(toHex(blake3(utf8.encode('same'))));
    expect(w.read(manifest.entries[0]!.content_hash)).toEqual(utf8.encode('same'));
    expect(manifestHash(manifest as never)).toBe(toHex(blake3(utf8.encode(canonicalJson(manifest)))));
    expect(verifySignedWorkspaceManifest(manifest as never, signature)).toBe(true);
    expect(verifySignedWorkspaceManifest({ ...manifest, entries: [] } as never, signature)).toBe(false);
  });
  it('a handle that is not the embedded key\'s did:key is refused whatever the signature', () => {
    const { manifest, signature } = new Workspace(A()).sign();
    const other = agentHandle(defaultEd25519().publicKeyFromSeed(B()));
    expect(() => verifySignedWorkspaceManifest({ ...manifest, owner: { ...manifest.owner, handle: other } } as never, signature)).toThrow(expect.objectContaining({ code: 'ERR_AGENT_HANDLE_MISMATCH' }));
  });

  // jouleclaw §11: "Absolute paths, empty paths, empty segments, . and .. segments, and NUL bytes are MUST rejected on write."
  it('names what is wrong with a refused path, and the path itself in the detail', () => {
    const cases: [string, string][] = [
      ['', 'a workspace path must not be empty'],
      ['a\u0000b', 'a workspace path must not hold a NUL byte'],
      ['/a', 'workspace path "/a" is absolute'],
      ['a/', 'workspace path "a/" has an empty segment'],
      ['a//b', 'workspace path "a//b" has an empty segment'],
      ['a/./b', 'workspace path "a/./b" has a . segment'],
      ['../b', 'workspace path "../b" has a .. segment'],
    ];
    for (const [path, message] of cases) {
      const e = thrown(() => checkWorkspacePath(path));
      expect(e.code, JSON.stringify(path)).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: ${message}`);
      expect(e.detail).toEqual({ path });
    }
  });
  it('refuses a path or content that is not of the right type, and a refused write writes nothing', () => {
    expect(thrown(() => checkWorkspacePath(5 as never)).message).toBe('ERR_BAD_ARGUMENT: a workspace path must be text');
    const w = new Workspace(A());
    const e = thrown(() => w.write('a', 'text' as never));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: workspace content must be bytes');
    expect(w.manifest().entries).toEqual([]);
  });
  // jouleclaw §11: "entries in the manifest are sorted lexically by path"
  it('sorts entries by path in code-unit order whatever the write order', () => {
    const paths = ['B', 'a', 'a/b', 'ab', 'b'];
    for (const order of [paths, [...paths].reverse(), ['ab', 'B', 'b', 'a/b', 'a'], ['a/b', 'b', 'a', 'ab', 'B']]) {
      const w = new Workspace(A());
      for (const p of order) w.write(p, utf8.encode(p));
      expect(w.manifest().entries.map((e) => e.path), order.join(',')).toEqual(paths);
    }
  });
  it('the manifest is tagged workspace/1 and names the owner by handle and hex key', () => {
    const m = new Workspace(A()).manifest();
    const key = defaultEd25519().publicKeyFromSeed(A());
    expect(m).toEqual({ jc_workspace: 'workspace/1', owner: { handle: agentHandle(key), public_key: toHex(key) }, entries: [] });
  });
  // jouleclaw §11: "the underlying backend stores bytes keyed by content_hash": what a hash names never changes
  it('keeps its own copy of the bytes: the caller changing its buffer, or a read one, changes nothing stored', () => {
    const w = new Workspace(A());
    const buf = utf8.encode('abc');
    const h = w.write('a', buf);
    buf[0] = 0x7a;
    const got = w.read(h)!;
    expect(got).toEqual(utf8.encode('abc'));
    got[1] = 0x7a;
    expect(w.read(h)).toEqual(utf8.encode('abc'));
    expect(w.read('00'.repeat(32))).toBeUndefined();
  });
  it('refuses a manifest that is not an object with an owner object', () => {
    for (const m of [null, 'm', {}, { owner: 'x' }]) {
      const e = thrown(() => verifySignedWorkspaceManifest(m as never, new Uint8Array(64)));
      expect(e.code, JSON.stringify(m)).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: a workspace manifest must be an object with an owner');
    }
  });
  // jouleclaw §11: verifiers check owner.handle against owner.public_key (§8) AND the signature
  it('refuses an owner whose handle or public_key is not text', () => {
    const { manifest } = new Workspace(A()).sign();
    for (const owner of [{ ...manifest.owner, handle: 5 }, { ...manifest.owner, public_key: 5 }]) {
      const e = thrown(() => verifySignedWorkspaceManifest({ ...manifest, owner } as never, new Uint8Array(64)));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: owner.handle and owner.public_key must be text');
    }
    const e = thrown(() => verifySignedWorkspaceManifest({ ...manifest, owner: { ...manifest.owner, public_key: 'zz' } } as never, new Uint8Array(64)));
    expect(e.code).toBe('ERR_HEX_MALFORMED');
    expect(e.detail).toEqual({ what: 'owner.public_key' });
  });
  it('refuses a signature that is not 64 bytes, or not bytes, before verifying', () => {
    const { manifest, signature } = new Workspace(A()).sign();
    for (const sig of [signature.subarray(0, 63), new Uint8Array(65), [...signature]]) {
      const e = thrown(() => verifySignedWorkspaceManifest(manifest as never, sig as never));
      expect(e.code).toBe('ERR_SIGNATURE_LENGTH');
      expect(e.message).toBe('ERR_SIGNATURE_LENGTH: a workspace manifest signature is 64 bytes');
    }
  });
});
