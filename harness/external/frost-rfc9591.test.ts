// Replays FROST(Ed25519, SHA-512) transcripts through the implementation under test's `threshold.sign`: RFC 9591
// Appendix E.1 (the cfrg poc vector) and the Zcash Foundation's second transcript over the same key and shares (a
// different nonce randomness, so a different signature). Given the vector's shares and round-one nonce randomness,
// the round-one commitments, the round-two signature shares and the final signature must be byte-exact, and the final
// signature must verify as a plain Ed25519 signature under the group key (jcp §2.2: "the group key is an ordinary
// Ed25519 verifying key"). Read from vectors/external/frost/.
import { expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { expectCode } from '../refusal.ts';
import { fromHexLoose, nodeEd25519, toHex } from '../oracle.ts';

interface FrostVector {
  readonly config: { readonly MAX_PARTICIPANTS: string; readonly MIN_PARTICIPANTS: string; readonly name: string };
  readonly inputs: {
    readonly participant_list: readonly number[];
    readonly group_public_key?: string;
    readonly verifying_key_key?: string; // the Zcash Foundation's name for the same field
    readonly message: string;
    readonly participant_shares: ReadonlyArray<{ identifier: number; participant_share: string }>;
  };
  readonly round_one_outputs: {
    readonly outputs: ReadonlyArray<{
      identifier: number;
      hiding_nonce_randomness: string;
      binding_nonce_randomness: string;
      hiding_nonce_commitment: string;
      binding_nonce_commitment: string;
    }>;
  };
  readonly round_two_outputs: { readonly outputs: ReadonlyArray<{ identifier: number; sig_share: string }> };
  readonly final_output: { readonly sig: string };
}

const FILES = [
  ['RFC 9591 Appendix E.1', 'frost/rfc9591_frost-ed25519-sha512.json', '36282629c383bb82'],
  ['Zcash Foundation frost-ed25519', 'frost/zcash-frost-ed25519_vectors.json', '154fb694'],
] as const;

describeWithShared('vectors', 'FROST(Ed25519, SHA-512) transcripts (RFC 9591)', (dir) => {
  for (const [name, file, sigPrefix] of FILES) {
    const v = readVectorJson<FrostVector>(dir, file);
    const h = (s: string, what: string) => fromHexLoose(s, what);
    const group = {
      min: Number(v.config.MIN_PARTICIPANTS),
      max: Number(v.config.MAX_PARTICIPANTS),
      group_public_key: h(v.inputs.group_public_key ?? v.inputs.verifying_key_key ?? '', 'group public key'),
    };
    const signers = v.inputs.participant_list.map((id) => {
      const s = v.inputs.participant_shares.find((x) => x.identifier === id);
      if (!s) throw new Error(`${file}: no share for participant ${id}`);
      return { identifier: id, signing_share: h(s.participant_share, `share ${id}`) };
    });
    const randomness = v.round_one_outputs.outputs.map((o) => ({
      identifier: o.identifier,
      hiding: h(o.hiding_nonce_randomness, 'hiding randomness'),
      binding: h(o.binding_nonce_randomness, 'binding randomness'),
    }));
    const message = h(v.inputs.message, 'message');

    clauseIt(['jcp/2.2#shares-by-dealer-or-dkg'], `${name}: commitments, signature shares and the signature, byte-exact`, async () => {
      expect(v.config.name).toBe('FROST(Ed25519, SHA-512)');
      expect(v.final_output.sig.startsWith(sigPrefix)).toBe(true); // the file is the transcript its name says
      const r = await implementation().thresholdSign(group, signers, message, randomness);
      expect(r.shares.map((s) => [s.identifier, toHex(s.hiding_commitment), toHex(s.binding_commitment)])).toEqual(
        v.round_one_outputs.outputs.map((o) => [o.identifier, o.hiding_nonce_commitment, o.binding_nonce_commitment]),
      );
      expect(r.shares.map((s) => [s.identifier, toHex(s.sig_share)])).toEqual(v.round_two_outputs.outputs.map((o) => [o.identifier, o.sig_share]));
      expect(toHex(r.signature)).toBe(v.final_output.sig);
    });

    clauseIt(['jcp/2.2#shares-by-dealer-or-dkg'], `${name}: the aggregate is an ordinary Ed25519 signature; one share alone signs nothing`, async () => {
      const impl = implementation();
      const sig = h(v.final_output.sig, 'sig');
      expect(await impl.verify(group.group_public_key, message, sig)).toBe(true);
      expect(nodeEd25519.verify(sig, message, group.group_public_key)).toBe(true);
      expect(await impl.verify(group.group_public_key, Uint8Array.of(...message, 0), sig)).toBe(false);
      for (const s of signers) {
        await expectCode(impl.thresholdSign(group, [s], message, randomness.filter((x) => x.identifier === s.identifier)), 'ERR_THRESHOLD_TOO_FEW_SIGNERS');
      }
    });
  }
});
