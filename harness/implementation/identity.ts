// jcp §2.1 rotation (C12) and §2.2 threshold actors (C13, C18): what the typed client answers of key events and threshold groups.
import type { CborMap } from '../../impl/cbor/index.ts';
import { U } from './values.ts';

/** A minted key event: its canonical signed bytes ({event, signature}) and its id. */
export interface KeyEventMinted {
  readonly key_event: Uint8Array;
  readonly event_id: string;
}
/** One participant's share: its number (1..max) and its 32-byte signing share. */
export interface ThresholdShareFields {
  readonly identifier: number;
  readonly signing_share: Uint8Array;
}
/** A threshold group as a dealer hands it out. */
export interface ThresholdGroupResult {
  readonly group_public_key: Uint8Array;
  readonly did: string;
  readonly shares: readonly ThresholdShareFields[];
}
/** A signing round's aggregate and each signer's public round outputs. */
export interface ThresholdSignResult {
  readonly signature: Uint8Array;
  readonly shares: ReadonlyArray<{ identifier: number; hiding_commitment: Uint8Array; binding_commitment: Uint8Array; sig_share: Uint8Array }>;
}
export function keyEventMinted(r: CborMap): KeyEventMinted {
  return { key_event: r.get('key_event') as Uint8Array, event_id: r.get('event_id') as string };
}
export function shareOf(m: CborMap): ThresholdShareFields {
  return { identifier: Number(U(m.get('identifier'))), signing_share: m.get('signing_share') as Uint8Array };
}
