// jcp-conformance validate --testee '<command>': the handshake, then one well-formed request per operation of the
// protocol, each response checked against harness/protocol/schema.ts. Says what conforms, what is unimplemented and
// what broke the protocol — before a full certification run is attempted.
import { Implementation, TesteeError, TesteeFailure, UnimplementedError } from './implementation.ts';
import { OPS } from './protocol/schema.ts';
import { blake3, contentId, deriveSeed, keyPairFromSeed } from './oracle.ts';

/** Runs the validation and prints a line per operation. Returns the exit code. */
export async function validateTestee(impl: Implementation): Promise<number> {
  const k = (l: string) => keyPairFromSeed(deriveSeed(`validate:${l}`));
  const issuer = k('issuer');
  const holder = k('holder');
  const steward = k('steward');
  const nonce = (l: string) => blake3(new TextEncoder().encode(l)).slice(0, 16);
  const resource = contentId({ resource: 'validate' });
  let problems = 0;
  const results: Record<string, string> = {};
  const attempt = async (op: string, f: () => Promise<unknown>) => {
    try {
      await f();
      results[op] = 'conforms';
    } catch (e) {
      if (e instanceof TesteeError) results[op] = `conforms (refused ${e.code})`;
      else if (e instanceof UnimplementedError) results[op] = 'unimplemented';
      else if (e instanceof TesteeFailure) {
        results[op] = `BROKE THE PROTOCOL — ${e.message}`;
        problems++;
      } else throw e;
    }
  };
  let info;
  try {
    info = await impl.info();
  } catch (e) {
    console.log(`hello: BROKE THE PROTOCOL — ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  console.log(`hello: ${info.name} ${info.version} speaks ${info.protocol}, claims ${info.claims.join(' ')}`);
  let grant: Uint8Array = new Uint8Array();
  let grantId = '';
  await attempt('identity.from-seed', () => impl.fromSeed(issuer.seed));
  await attempt('identity.parse-did', () => impl.parseDid(issuer.did));
  await attempt('ed25519.sign', () => impl.sign(issuer.seed, new Uint8Array([1, 2, 3])));
  await attempt('ed25519.verify', () => impl.verify(issuer.publicKey, new Uint8Array([1]), new Uint8Array(64)));
  await attempt('cbor.check', () => impl.cborCheck(new Uint8Array([0xa1, 0x61, 0x61, 0x01])));
  await attempt('grant.mint', async () => {
    const m = await impl.mintGrant(issuer.seed, { subject: holder.did, resource, actions: ['call'], budget_uj: 10n, nonce: nonce('g') });
    grant = m.signed_grant;
    grantId = m.grant_id;
  });
  await attempt('grant.attenuate', () => impl.attenuate(grant, holder.seed, { subject: steward.did, budget_uj: 5n, nonce: nonce('c') }));
  await attempt('grant.shard', () => impl.shard(grant, holder.seed, [{ subject: steward.did, budget_uj: 5n, nonce: nonce('s') }]));
  await attempt('grant.verify', () => impl.verifyGrant(grant));
  await attempt('revocation.mint', () => impl.mintRevocation(issuer.seed, grantId || '0'.repeat(64), nonce('r')));
  await attempt('frame.check', () => impl.frameCheck(new Uint8Array([0xa0])));
  let receipt: Uint8Array = new Uint8Array();
  await attempt('point.new', async () => {
    const p = await impl.newPoint(steward.seed);
    await attempt('point.trust-roots', () => p.setTrustRoots(resource, [issuer.did]));
    await attempt('point.decide', async () => {
      receipt = (await p.decide({ frame: { kind: 'tool-call', trust: 'control', grant_id: grantId || '0'.repeat(64), action: 'call', resource, payload_hash: resource }, chain: [grant], caller: holder.did, cost: { uj: 1n, provenance: 'Estimator' }, now_s: 1n })).receipt;
    });
    await attempt('point.spent', () => p.spent(grantId || '0'.repeat(64)));
    await attempt('point.revoke', async () => p.revoke(await impl.mintRevocation(issuer.seed, grantId, nonce('r2')), grant));
  });
  await attempt('receipt.verify', () => impl.verifyReceipt(receipt, steward.did));
  for (const op of Object.keys(OPS)) if (op !== 'hello') console.log(`${op}: ${results[op] ?? 'not reached'}`);
  await impl.transport.close();
  console.log(problems ? `${problems} operation(s) broke the protocol` : 'every answer conforms to the protocol schema');
  return problems ? 1 : 0;
}
