// The agent workspace (jouleclaw §11): paths checked on write, content addressed by BLAKE3, the WorkspaceManifest
// ("workspace/1") with its entries sorted by path, its content hash and its Ed25519 signature over the canonical
// manifest bytes, and the verifier that checks the owner's handle against its key (§8) AND the signature.
//
// "Canonical JSON serialisation" is read as in impl/jouleclaw/contract-json.ts (RFC 8785); the canonical manifest bytes
// are the UTF-8 of that text. Entries sort by path in UTF-16 code-unit order (JavaScript's string order), which is
// code-point order for the paths a writer chooses outside the astral planes. A path written again replaces its entry.
import { fromHex, toHex } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { canonicalJson, isJsonObject, type JsonValue } from './contract-json.ts';
import { agentHandle, checkAgentIdentity } from './identity.ts';

/** One manifest entry (jouleclaw §11). */
export interface WorkspaceEntry {
  readonly path: string;
  readonly content_hash: string;
  readonly size: number;
  readonly kind: string;
}

/** A WorkspaceManifest (jouleclaw §11). */
export interface WorkspaceManifest {
  readonly jc_workspace: 'workspace/1';
  readonly owner: { readonly handle: string; readonly public_key: string };
  readonly entries: readonly WorkspaceEntry[];
}

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Throws ERR_BAD_ARGUMENT unless `path` is a relative /-joined path (jouleclaw §11): "Absolute paths, empty paths,
 * empty segments, . and .. segments, and NUL bytes are MUST rejected on write."
 */
export function checkWorkspacePath(path: string): string {
  if (typeof path !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a workspace path must be text');
  if (path.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a workspace path must not be empty', { path });
  if (path.includes('\u0000')) throw new JcpError('ERR_BAD_ARGUMENT', 'a workspace path must not hold a NUL byte', { path });
  if (path.startsWith('/')) throw new JcpError('ERR_BAD_ARGUMENT', `workspace path ${JSON.stringify(path)} is absolute`, { path });
  for (const segment of path.split('/')) {
    if (segment === '') throw new JcpError('ERR_BAD_ARGUMENT', `workspace path ${JSON.stringify(path)} has an empty segment`, { path });
    if (segment === '.' || segment === '..') throw new JcpError('ERR_BAD_ARGUMENT', `workspace path ${JSON.stringify(path)} has a ${segment} segment`, { path });
  }
  return path;
}

/** The canonical bytes of a manifest: the UTF-8 of its canonical JSON (jouleclaw §11). */
export function manifestBytes(manifest: JsonValue): Uint8Array {
  return utf8.encode(canonicalJson(manifest));
}

/** The manifest's content hash: BLAKE3 hex over its canonical JSON serialisation (jouleclaw §11). */
export function manifestHash(manifest: JsonValue): string {
  return toHex(blake3(manifestBytes(manifest)));
}

/** A single-writer, content-addressed workspace owned by one agent key (jouleclaw §11). */
export class Workspace {
  private readonly entries = new Map<string, WorkspaceEntry>();
  private readonly blobs = new Map<string, Uint8Array>();
  private readonly publicKey: Uint8Array;

  constructor(
    private readonly ownerSeed: Uint8Array,
    private readonly backend: Ed25519 = defaultEd25519(),
  ) {
    this.publicKey = backend.publicKeyFromSeed(ownerSeed);
  }

  /** Writes `content` at `path` (checked first: a refused path writes nothing); answers its content hash. */
  write(path: string, content: Uint8Array, kind?: string): string {
    checkWorkspacePath(path);
    if (!(content instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'workspace content must be bytes');
    const content_hash = toHex(blake3(content));
    // identical content is stored once, keyed by its hash
    if (!this.blobs.has(content_hash)) this.blobs.set(content_hash, content.slice());
    this.entries.set(path, { path, content_hash, size: content.length, kind: kind ?? (isUtf8(content) ? 'text' : 'binary') });
    return content_hash;
  }

  /** The bytes stored under `content_hash`, if any. */
  read(content_hash: string): Uint8Array | undefined {
    return this.blobs.get(content_hash)?.slice();
  }

  /** The manifest, entries sorted lexically by path (jouleclaw §11). */
  manifest(): WorkspaceManifest {
    const entries = [...this.entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { jc_workspace: 'workspace/1', owner: { handle: agentHandle(this.publicKey), public_key: toHex(this.publicKey) }, entries };
  }

  /** The Ed25519 signature of the owner over the canonical manifest bytes (a SignedWorkspaceManifest's). */
  sign(): { manifest: WorkspaceManifest; signature: Uint8Array } {
    const manifest = this.manifest();
    return { manifest, signature: this.backend.sign(this.ownerSeed, manifestBytes(manifest as unknown as JsonValue)) };
  }
}

function isUtf8(b: Uint8Array): boolean {
  try {
    strictUtf8.decode(b);
    return true;
  } catch {
    return false;
  }
}

/**
 * Verifies a SignedWorkspaceManifest (jouleclaw §11): "Verifiers MUST check both that the embedded owner.handle matches
 * the embedded owner.public_key under §8 derivation, AND that the signature verifies." A handle that is not the key's
 * did:key throws ERR_AGENT_HANDLE_MISMATCH before the signature is looked at; otherwise answers whether the signature
 * over the canonical manifest bytes verifies under owner.public_key.
 */
export function verifySignedWorkspaceManifest(manifest: JsonValue, signature: Uint8Array, backend: Ed25519 = defaultEd25519()): boolean {
  if (!isJsonObject(manifest) || !isJsonObject(manifest['owner'])) throw new JcpError('ERR_BAD_ARGUMENT', 'a workspace manifest must be an object with an owner');
  const { handle, public_key } = manifest['owner'];
  if (typeof public_key !== 'string' || typeof handle !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'owner.handle and owner.public_key must be text');
  const key = fromHex(public_key.toLowerCase(), 'owner.public_key');
  checkAgentIdentity({ handle, public_key: key });
  if (!(signature instanceof Uint8Array) || signature.length !== 64) throw new JcpError('ERR_SIGNATURE_LENGTH', 'a workspace manifest signature is 64 bytes');
  return backend.verify(signature, manifestBytes(manifest), key);
}
