// Adapters with one content fault each, for harness/self/validate.test.ts: the reference behind the testee protocol
// (harness/adapter/reference.ts), every answer in the protocol's shape, one answer wrong in what it says. The fault is
// the first argument; an unknown or missing one exits 2, so a typo never serves the faithful reference.
//   wrong-grant-id        grant.verify echoes a grant_id that is not the grant's (jcp §4)
//   mint-drop-caveats     grant.mint signs the grant without the caveats it was asked for (jcp §4.9)
//   view-drop-caveats     grant.verify's neutral view leaves the caveats out (the grant itself keeps them)
//   allow-deny-receipt    point.decide answers allow where it decided, and sealed, deny (jcp §7, §8)
//   spent-stuck           point.spent answers 0 whatever was debited (jcp §7)
//   frame-drop-model      frame.check leaves model out of the frame it echoes (jcp §6)
//   attenuate-any-holder  grant.attenuate lets a key other than the parent's subject delegate (jcp §4.1)
import { createReferenceAdapter } from '../../adapter/reference.ts';
import { serve } from '../../adapter/serve.ts';
import type { Adapter } from '../../adapter/respond.ts';
import { isJcpError, type CborInput, type CborMap } from '../../../impl/index.ts';
import {
  decodeCanonical,
  defaultEd25519,
  encodeCanonical,
  grantBytes,
  grantId,
  keyPairFromSeed,
  parseCaveats,
  parseSignedGrant,
  signedGrantToCbor,
  type Grant,
} from '../../oracle.ts';

const FAULTS = ['wrong-grant-id', 'mint-drop-caveats', 'view-drop-caveats', 'allow-deny-receipt', 'spent-stuck', 'frame-drop-model', 'attenuate-any-holder'] as const;
const fault = process.argv[2] ?? '';
if (!(FAULTS as readonly string[]).includes(fault)) {
  process.stderr.write(`validate-faults: unknown fault ${JSON.stringify(fault)} (one of ${FAULTS.join(', ')})\n`);
  process.exit(2);
}

const reference = createReferenceAdapter();
/** `m` with `k` set to `v` (or removed when v is undefined), as a fresh map. */
const withKey = (m: CborMap, k: string, v: CborInput | undefined): CborMap => {
  const out = new Map(m) as Map<unknown, unknown>;
  if (v === undefined) out.delete(k);
  else out.set(k, v);
  return out as CborMap;
};

/** jcp §4.1 broken on purpose: the child signed by whoever `holder_seed` is, named its issuer, unchecked. */
function anyHolderChild(args: CborMap): CborInput {
  const parent = parseSignedGrant(decodeCanonical(args.get('parent') as Uint8Array)).grant;
  const signer = keyPairFromSeed(args.get('holder_seed') as Uint8Array);
  const c = args.get('child') as CborMap;
  const added = c.has('add_caveats') ? parseCaveats(c.get('add_caveats')!) : [];
  const caveats = [...(parent.caveats ?? []), ...added];
  const child: Grant = {
    issuer: signer.did,
    subject: c.get('subject') as string,
    capability: { resource: parent.capability.resource, actions: (c.get('actions') as string[] | undefined) ?? parent.capability.actions },
    budget_uj: (c.get('budget_uj') as bigint | undefined) ?? parent.budget_uj,
    expiry: (c.get('expiry') as bigint | undefined) ?? parent.expiry,
    nonce: c.get('nonce') as Uint8Array,
    parent: grantId(parent),
    ...(caveats.length ? { caveats } : {}),
  };
  const signature = defaultEd25519().sign(signer.seed, grantBytes(child));
  return { signed_grant: encodeCanonical(signedGrantToCbor({ grant: child, signature })), grant_id: grantId(child) };
}

const adapter: Adapter = {
  handle(op: string, args: CborMap): CborInput {
    if (fault === 'mint-drop-caveats' && op === 'grant.mint') {
      return reference.handle(op, withKey(args, 'grant', withKey(args.get('grant') as CborMap, 'caveats', undefined) as CborInput));
    }
    if (fault === 'attenuate-any-holder' && op === 'grant.attenuate') {
      try {
        return reference.handle(op, args);
      } catch (e) {
        if (isJcpError(e) && e.code === 'ERR_NOT_HOLDER') return anyHolderChild(args);
        throw e;
      }
    }
    const answer = reference.handle(op, args) as Record<string, CborInput>;
    if (fault === 'wrong-grant-id' && op === 'grant.verify') return { ...answer, grant_id: 'f'.repeat(64) };
    if (fault === 'view-drop-caveats' && op === 'grant.verify' && answer['grant']) {
      const { caveats: _, ...view } = answer['grant'] as Record<string, CborInput>;
      return { ...answer, grant: view };
    }
    if (fault === 'allow-deny-receipt' && op === 'point.decide' && answer['verdict'] === 'deny') return { verdict: 'allow', receipt: answer['receipt']! };
    if (fault === 'spent-stuck' && op === 'point.spent') return { spent_uj: 0n };
    if (fault === 'frame-drop-model' && op === 'frame.check') {
      const { model: _, ...frame } = answer['frame'] as Record<string, CborInput>;
      return { frame };
    }
    return answer;
  },
};

serve(adapter, process.stdin, process.stdout).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`validate-faults: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
