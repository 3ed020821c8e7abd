#!/usr/bin/env python3
"""A jcp-testee/1 adapter skeleton in Python (harness/PROTOCOL.md, harness/protocol/testee.cddl).

The harness starts this program once and keeps it running. Each request is one frame on stdin, each answer one frame
on stdout: a 4-byte big-endian length, then that many bytes of canonical det-CBOR (jcp §3, §11). stderr is free for
logging; the harness keeps its last 4 KiB as evidence.

Copy this folder, then replace the handlers in OPS with calls into your implementation, and its exceptions in
`refusal_of` with yours. Every op not in OPS is answered `unimplemented`, which the harness reports as
`not applicable` (or `unimplemented` where a class you claim needs it) — never as passed.

Run it under the suite:  npx jcp-conformance validate --testee '/usr/bin/python3 examples/python/jcp_testee.py'
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout that runs it
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from jcp_cbor import CborError, decode, encode  # noqa: E402
import jcp_blake3  # noqa: E402
import jcp_identity as identity  # noqa: E402

PROTOCOL = "jcp-testee/1"
#: Either side refuses a frame over 1 MiB (harness/PROTOCOL.md "Framing").
MAX_FRAME_BYTES = 1 << 20

#: The handshake's answer (harness/PROTOCOL.md "The handshake"). `claims`: a class is claimed only when every operation
#: it requires (harness/protocol/claims.ts) is implemented; jcp:C1 needs grants and points too, so this kit claims none.
HELLO = {
    "name": "jcp-python-kit",
    "version": "0.1.0",
    "protocol": PROTOCOL,
    "language": "Python",
    "claims": [],
    # optional: the open points this testee takes a side on (harness/protocol/readings.ts). cbor2's canonical mode
    # sorts map keys length-first (RFC 7049 §3.9), which is what jcp_cbor writes and demands.
    "readings": {"key-order": "length-first"},
}


class Refusal(Exception):
    """The input is refused with one of the suite's codes (testee.cddl `error-code`); answered `{seq, error}`."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class FramingError(Exception):
    """The harness's bytes are not a frame this side accepts: the stream cannot go on."""


# ---- framing: jcp §11 (4-byte big-endian length, canonical det-CBOR body), both directions ----------------------

def read_frame(stream):
    """The next request, decoded; None at a clean end of input (the harness closed stdin)."""
    head = stream.read(4)
    if not head:
        return None
    if len(head) < 4:
        raise FramingError("input ended inside a frame's length")
    length = int.from_bytes(head, "big")
    # jcp §11: "A receiver MUST reject a message longer than its declared cap"
    if length > MAX_FRAME_BYTES:
        raise FramingError(f"a frame declares {length} bytes, over the {MAX_FRAME_BYTES}-byte cap")
    body = stream.read(length)
    if len(body) < length:
        raise FramingError("input ended inside a frame's body")
    try:
        # jcp §11: "MUST reject a non-canonical body"
        return decode(body)
    except CborError as e:
        raise FramingError(f"a frame body is not canonical det-CBOR ({e.code}): {e.message}") from None


def frame_bytes(value):
    """The frame of one answer: its length, then its canonical encoding."""
    body = encode(value)
    if len(body) > MAX_FRAME_BYTES:
        raise CborError("ERR_CBOR_TOO_LARGE", f"an answer of {len(body)} bytes exceeds the {MAX_FRAME_BYTES}-byte cap")
    return len(body).to_bytes(4, "big") + body


# ---- arguments: a request's `args` as the op's schema (testee.cddl `<op>-args`) says; ERR_BAD_ARGUMENT otherwise ----

def arg_bytes(args, name):
    v = args.get(name)
    if not isinstance(v, bytes):
        raise Refusal("ERR_BAD_ARGUMENT", f"args.{name} must be a byte string")
    return v


def arg_text(args, name):
    v = args.get(name)
    if not isinstance(v, str):
        raise Refusal("ERR_BAD_ARGUMENT", f"args.{name} must be a text string")
    return v


# ---- the implementation's own exceptions, mapped onto the suite's codes ----------------------------------------------

def refusal_of(e):
    """The suite's (code, message) for an exception the implementation raised; None for one it does not know, which
    is a bug of the adapter and ends the program (the harness reports a crash with this program's stderr)."""
    if isinstance(e, Refusal):
        return e.code, e.message
    if isinstance(e, CborError):
        return e.code, e.message
    if isinstance(e, identity.DidError):
        return "ERR_DID_MALFORMED", str(e)
    if isinstance(e, identity.LengthError):
        code = {"seed": "ERR_SEED_LENGTH", "public key": "ERR_KEY_LENGTH", "signature": "ERR_SIGNATURE_LENGTH"}[e.what]
        return code, str(e)
    return None


def content_id(value):
    """jcp §3: a content id is blake3(canonical_cbor(value)), lowercase hex. The ops that name grants, receipts and
    records by id need it; none of the ops below does."""
    return jcp_blake3.blake3(encode(value)).hex()


# ---- the operations: op name -> handler(args) -> the `ok` map (testee.cddl `<op>-ok`) ---------------------------------

def hello(args):
    if args.get("protocol") != PROTOCOL:
        raise Refusal("ERR_BAD_ARGUMENT", f"this testee speaks {PROTOCOL} only, not {args.get('protocol')!r}")
    return HELLO


def identity_from_seed(args):
    public_key = identity.public_key_from_seed(arg_bytes(args, "seed"))
    return {"public_key": public_key, "did": identity.did_from_public_key(public_key)}


def identity_parse_did(args):
    return {"public_key": identity.public_key_from_did(arg_text(args, "did"))}


def ed25519_sign(args):
    return {"signature": identity.sign(arg_bytes(args, "seed"), arg_bytes(args, "message"))}


def ed25519_verify(args):
    ok = identity.verify(arg_bytes(args, "public_key"), arg_bytes(args, "message"), arg_bytes(args, "signature"))
    # no booleans on the wire (harness/PROTOCOL.md "Messages"): a verdict is text
    return {"verdict": "valid" if ok else "invalid"}


def cbor_check(args):
    # jcp §3, §11: strict canonical decode (no tags allowed here), then re-encode
    return {"canonical": encode(decode(arg_bytes(args, "bytes")))}


OPS = {
    "hello": hello,
    "identity.from-seed": identity_from_seed,
    "identity.parse-did": identity_parse_did,
    "ed25519.sign": ed25519_sign,
    "ed25519.verify": ed25519_verify,
    "cbor.check": cbor_check,
}


def answer(request):
    """The frame answering one decoded request: `{seq, ok}`, `{seq, error: {code, message}}` or `{seq, unimplemented}`."""
    if not isinstance(request, dict) or not isinstance(request.get("seq"), int):
        raise FramingError("a request is a map {seq, op, args}")
    seq, op, args = request["seq"], request.get("op"), request.get("args")
    if not isinstance(op, str) or not isinstance(args, dict):
        raise FramingError("a request is a map {seq, op, args}")
    handler = OPS.get(op)
    if handler is None:
        return frame_bytes({"seq": seq, "unimplemented": f"{op} is not implemented by this adapter"})
    try:
        result = handler(args)
    except Exception as e:  # noqa: BLE001 - mapped onto a code, or re-raised
        mapped = refusal_of(e)
        if mapped is None:
            raise
        return frame_bytes({"seq": seq, "error": {"code": mapped[0], "message": mapped[1]}})
    try:
        return frame_bytes({"seq": seq, "ok": result})
    except CborError as e:
        # an answer over the cap is refused rather than written; any other encoding fault is the adapter's bug
        if e.code != "ERR_CBOR_TOO_LARGE":
            raise
        return frame_bytes({"seq": seq, "error": {"code": e.code, "message": e.message}})


def serve(stdin, stdout):
    while True:
        request = read_frame(stdin)
        if request is None:
            return
        stdout.write(answer(request))
        stdout.flush()


def main():
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except FramingError as e:
        print(f"jcp_testee: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
