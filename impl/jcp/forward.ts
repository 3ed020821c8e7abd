// jcp §4.10 "What 'the argument' covers": a forwarding enforcement point in front of an endpoint. A forwarded request
// is routing (the frame: the action it names) + arguments + open fields (extension parameters, side-channel metadata,
// envelope members the point does not interpret) + the protocol's fixed machinery (a version, a capability set, a
// progress token). Per request the forwarder labels every open field (the host's label), joins the labels of the
// arguments and every open field into the one label the gate judges (§4.10, before caveats and budget, so a tainted
// field costs zero joules), seals every open field with the arguments into the payload the receipt commits (§8
// payload_hash), and forwards exactly the bytes it sealed — or, for a field it cannot label, does not forward it.
//
// Readings taken where §4.10 leaves a shape open (each also noted where it is applied):
// - A field the host gives no label for is DROPPED: left out of the forwarded message, out of the sealed payload and
//   out of the join, and named in the result's `dropped`. §4.10 says "or else MUST NOT forward it" of the field, so
//   the request itself still goes on (its gate decides it); refusing the whole request was the other reading.
// - Only the protocol's fixed machinery may be left out of the label, and only where the forwarder declares it
//   (`omit`, a subset of FIXED_MACHINERY). Declaring any other name is refused (ERR_BAD_ARGUMENT): an open field that
//   could be declared "machinery" would be a way past the ceiling. A declared field present WITHOUT a label is
//   forwarded and sealed but left out of the join, and named in `omitted` (the forwarder's `omittedFields` is the
//   declared list; each result's `omitted` is what this request left out). A declared field the host does label is
//   joined like an open field (labelling more can only narrow), so `omitted` names exactly what was left out.
// - The sealed payload is the forwarded message itself, canonical det-CBOR (§3):
//     { action: tstr, arguments: any, ? fields: { + tstr => any }, ? omitted: [+ tstr] }
//   (`fields` holds every forwarded open field and fixed-machinery field by name; empty members are omitted), and the
//   frame's payload_hash is its content id, blake3(forwarded) — so the receipt binds exactly the bytes forwarded, and
//   it also says which fields were left out of the label. Labels are not part of the message: the endpoint gets data.
// - The arguments' label absent means "not computed" (§4.10): the gated label is then absent too, and the gate fails
//   closed against a ceiling or floor; the arguments are never dropped (they are the request).
import type { Cost } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { decodeCanonical, encodeCanonical, type CborInput } from '../cbor/index.ts';
import { labelToCbor, parseLabel } from './codec.ts';
import { contentIdOfBytes } from './content-id.ts';
import { joinLabels } from './continuation.ts';
import type { Decision, EnforcementPoint } from './enforcement-point.ts';
import type { ContentId, Did, Frame, Funds, Label, SignedGrant } from './types.ts';

/** jcp §4.10: the protocol's own fixed machinery a forwarder MAY leave out of the label ("a version, a capability set, a progress token"). */
export const FIXED_MACHINERY = Object.freeze(['capabilities', 'progress_token', 'version'] as const);
/** One name of {@link FIXED_MACHINERY}. */
export type FixedMachinery = (typeof FIXED_MACHINERY)[number];

/** The routing of a forwarded request: a frame without its payload_hash, which the forwarder computes from what it forwards. */
export type Route = Omit<Frame, 'payload_hash'>;

/** A field the request carries besides routing and arguments: an open field, or a fixed-machinery field by name. */
export interface ForwardField {
  readonly name: string;
  readonly value: CborInput;
  /** The host's label of the field (§4.10); absent = not labelled, so not forwarded unless declared fixed machinery. */
  readonly label?: Label;
}

/** One request to forward (jcp §4.10) and what the decision is asked besides it (§7). */
export interface ForwardRequest {
  readonly route: Route;
  readonly chain: readonly SignedGrant[];
  readonly caller: Did;
  readonly cost: Cost;
  readonly now_s: bigint;
  readonly cost_funds?: Funds;
  readonly arguments: CborInput;
  /** The arguments' label; absent = their provenance was not computed (never read as clean). */
  readonly arguments_label?: Label;
  readonly fields?: readonly ForwardField[];
}

/** What the forwarder did with one request. */
export interface ForwardResult {
  /** The sealed decision (allow debits; deny debits nothing). Its core's payload_hash is `payload_hash`. */
  readonly decision: Decision;
  /** The content id of the message decided over: blake3 of its canonical bytes. */
  readonly payload_hash: ContentId;
  /** On allow only: the canonical bytes forwarded to the endpoint — exactly the message whose content id was sealed. */
  readonly forwarded?: Uint8Array;
  /** The label the gate judged: the join of the arguments' and every joined field's label; absent when not computed. */
  readonly label?: Label;
  /** The fixed-machinery fields this request carried that were left out of the label (sorted; also in the message). */
  readonly omitted: readonly string[];
  /** The fields not forwarded because they carried no label (sorted). */
  readonly dropped: readonly string[];
}

/** Options of {@link createForwarder}. */
export interface ForwarderOptions {
  /** The enforcement point whose decision gates every forwarded request. */
  readonly point: EnforcementPoint;
  /** The fixed-machinery fields this forwarder leaves out of the label when unlabelled (default: none). */
  readonly omit?: readonly string[];
}

/** A forwarding enforcement point (jcp §4.10). */
export interface Forwarder {
  /** The declared list of fields this forwarder may leave out of the label (sorted): §4.10 "it MUST say which". */
  readonly omittedFields: readonly string[];
  /** Labels, joins, gates, seals and (on allow) forwards one request. ERR_BAD_ARGUMENT for a malformed request. */
  forward(req: ForwardRequest): ForwardResult;
}

function bad(msg: string): never {
  throw new JcpError('ERR_BAD_ARGUMENT', msg);
}

/** A label checked by the same rules as on the wire (codec's parseLabel): a malformed one would join wrongly. */
function checkedLabel(l: unknown, what: string): Label {
  try {
    return parseLabel(decodeCanonical(encodeCanonical(labelToCbor(l as Label))), `$${what}`);
  } catch (e) {
    if (e instanceof JcpError) bad(`${what}: ${e.message}`);
    return bad(`${what} must be a label {integrity, origins, readers} (jcp §4.10)`);
  }
}

function checkOmit(omit: unknown): readonly string[] {
  if (omit === undefined) return Object.freeze([]);
  if (!Array.isArray(omit)) bad('omit must be an array of fixed-machinery field names');
  for (const n of omit) {
    if (!(FIXED_MACHINERY as readonly unknown[]).includes(n)) {
      bad(`omit: ${JSON.stringify(n)} is not the protocol's fixed machinery (${FIXED_MACHINERY.join(', ')}); an open field must be labelled (jcp §4.10)`);
    }
  }
  return Object.freeze([...new Set(omit as string[])].sort());
}

function checkRoute(route: unknown): Route {
  if (typeof route !== 'object' || route === null) bad('route must be a frame without payload_hash (jcp §6)');
  if ('payload_hash' in route) bad('route must not carry a payload_hash: the forwarder computes it from what it forwards');
  return route as Route;
}

/** Every field, each checked: a non-empty unique name, an encodable value, a well-formed label when present. */
function checkFields(fields: unknown): readonly ForwardField[] {
  if (fields === undefined) return [];
  if (!Array.isArray(fields)) bad('fields must be an array of {name, value, label?}');
  const seen = new Set<string>();
  return fields.map((f: unknown, i: number) => {
    const o = f as Partial<ForwardField> | null;
    if (typeof o !== 'object' || o === null || typeof o.name !== 'string' || o.name.length === 0) bad(`fields[${i}] must be {name: non-empty text, value, label?}`);
    if (seen.has(o.name)) bad(`fields[${i}]: field ${JSON.stringify(o.name)} appears twice`);
    seen.add(o.name);
    if (o.value === undefined) bad(`fields[${i}] (${o.name}) has no value`);
    encodeCanonical(o.value); // ERR_* from the encoder for a value canonical CBOR cannot carry
    return { name: o.name, value: o.value, ...(o.label !== undefined ? { label: checkedLabel(o.label, `fields[${i}].label`) } : {}) };
  });
}

/** How the forwarder treats each field: joined (labelled), omitted (declared fixed machinery, unlabelled) or dropped. */
function classify(fields: readonly ForwardField[], omit: readonly string[]) {
  const joined: ForwardField[] = [];
  const omitted: ForwardField[] = [];
  const dropped: string[] = [];
  for (const f of fields) {
    if (f.label !== undefined) joined.push(f);
    else if (omit.includes(f.name)) omitted.push(f); // jcp §4.10 "It MAY leave out the protocol's own fixed machinery"
    else dropped.push(f.name); // jcp §4.10 "or else MUST NOT forward it"
  }
  return { joined, omitted, dropped: dropped.sort() };
}

/** The forwarded message (see the header): every forwarded field sealed with the arguments, and the omitted names. */
function message(action: string, args: CborInput, forwardedFields: readonly ForwardField[], omitted: readonly string[]): Uint8Array {
  const fields = new Map<string, CborInput>(forwardedFields.map((f) => [f.name, f.value]));
  return encodeCanonical({
    action,
    arguments: args,
    ...(fields.size > 0 ? { fields } : {}),
    ...(omitted.length > 0 ? { omitted: [...omitted] } : {}),
  });
}

/** Creates a forwarder in front of an endpoint, gated by `point`. ERR_BAD_ARGUMENT for an `omit` outside FIXED_MACHINERY. */
export function createForwarder(opts: ForwarderOptions): Forwarder {
  const point = opts?.point;
  if (typeof point?.decide !== 'function') bad('a forwarder needs an enforcement point');
  const omit = checkOmit(opts.omit);

  return Object.freeze({
    omittedFields: omit,
    forward(req: ForwardRequest): ForwardResult {
      if (typeof req !== 'object' || req === null) bad('a forward request must be an object');
      const route = checkRoute(req.route);
      if (req.arguments === undefined) bad('a forward request carries arguments');
      const argsLabel = req.arguments_label === undefined ? undefined : checkedLabel(req.arguments_label, 'arguments_label');
      const { joined, omitted, dropped } = classify(checkFields(req.fields), omit);
      const omittedNames = omitted.map((f) => f.name).sort();
      // jcp §4.10 "MUST seal it with the arguments": the message carries every forwarded field, and its content id is
      // the frame's payload_hash, which the receipt commits (§8)
      const bytes = message(route.action, req.arguments, [...joined, ...omitted], omittedNames);
      const payload_hash = contentIdOfBytes(bytes);
      // jcp §4.10 "the argument whose label is gated is everything the request carries to the endpoint except the
      // routing": the arguments' label joined with every labelled field's (absent arguments label = not computed)
      const label = argsLabel === undefined ? undefined : joinLabels([argsLabel, ...joined.map((f) => f.label!)]);
      const decision = point.decide({
        frame: { ...route, payload_hash },
        chain: req.chain,
        caller: req.caller,
        cost: req.cost,
        now_s: req.now_s,
        ...(req.cost_funds !== undefined ? { cost_funds: req.cost_funds } : {}),
        ...(label !== undefined ? { label } : {}),
      });
      return Object.freeze({
        decision,
        payload_hash,
        ...(decision.verdict === 'allow' ? { forwarded: bytes } : {}),
        ...(label !== undefined ? { label } : {}),
        omitted: Object.freeze(omittedNames),
        dropped: Object.freeze(dropped),
      });
    },
  });
}
