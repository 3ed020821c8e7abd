// Unit tests of the agent workspace (impl/jouleclaw/workspace.ts, jouleclaw §11).
import { describe, expect, it } from 'vitest';
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
});
