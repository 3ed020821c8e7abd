"""Canonical det-CBOR for a jcp-testee/1 adapter (jcp §3, §11): cbor2 reads and writes the items; this module refuses
every encoding that is not the canonical one first, and names the fault with the suite's ERR_CBOR_* code.

jcp §3: "canonical det-CBOR (RFC 8949 §4.2.1): length-first then bytewise key order, shortest integer form, no floats,
bools, or nulls in a signed core". cbor2's `canonical=True` writes exactly that: shortest heads, definite lengths, and
map keys sorted by (length of the key's encoding, the encoding) — RFC 7049 §3.9 order, the reading the suite takes
(open point `key-order` = `length-first`). cbor2's decoder checks none of it, so `decode` walks the bytes first.

What cbor2 would accept and `decode` refuses: a head longer than it needs, indefinite lengths, keys out of order or
repeated, floats, simple values (false, true, null, undefined, ...), tags, reserved additional information 28-30,
nesting deeper than 64, bytes after the one item. Invalid UTF-8 and truncation cbor2 also refuses, but with its own
exceptions; the walk names them first.
"""
from collections.abc import Mapping

import cbor2

#: Arrays, maps and tags nested deeper than this are ERR_CBOR_TOO_DEEP (the reference decoder's default).
MAX_DEPTH = 64


class CborError(Exception):
    """A refusal with one of the suite's codes (harness/protocol/testee.cddl `error-code`)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def decode(data, allow_tags=()):
    """The one canonical det-CBOR item that is all of `data`, or CborError naming why it is not canonical."""
    data = bytes(data)
    end = _item(data, 0, 0, frozenset(allow_tags))
    # jcp §11: "a message has exactly one wire form" — one item, nothing after it
    if end != len(data):
        raise CborError("ERR_CBOR_TRAILING_BYTES", f"{len(data) - end} byte(s) after the one top-level item")
    return cbor2.loads(data)


def encode(value, allow_tags=False):
    """The canonical det-CBOR bytes of `value`: int (not bool), bytes, str, list/tuple, dict; CborError otherwise.
    (cbor2 decodes an array that is a map key as a tuple, a map as a FrozenDict: both encode back as they came.)"""
    _encodable(value, "$", allow_tags, 0)
    return cbor2.dumps(value, canonical=True)


def _encodable(v, path, allow_tags, depth):
    if isinstance(v, (list, tuple, Mapping, cbor2.CBORTag)) and depth >= MAX_DEPTH:
        raise CborError("ERR_CBOR_TOO_DEEP", f"{path}: nested deeper than {MAX_DEPTH}")
    # bool is a subclass of int in Python: test it first. jcp §3: no floats, bools or nulls.
    if isinstance(v, bool) or v is None or isinstance(v, float):
        raise CborError("ERR_CBOR_UNENCODABLE", f"{path}: {v!r} has no det-CBOR form (jcp §3: no floats, bools, or nulls)")
    if isinstance(v, int):
        # beyond 64 bits cbor2 would write a bignum tag (RFC 8949 §3.4.3), which a signed core cannot carry
        if not -(1 << 64) <= v < (1 << 64):
            raise CborError("ERR_CBOR_UNENCODABLE", f"{path}: {v} is outside -2^64 ... 2^64-1")
    elif isinstance(v, (bytes, bytearray)):
        pass
    elif isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise CborError("ERR_CBOR_UNENCODABLE", f"{path}: a lone surrogate is not UTF-8") from None
    elif isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            _encodable(x, f"{path}[{i}]", allow_tags, depth + 1)
    elif isinstance(v, Mapping):  # dict; cbor2 decodes a map that is itself a map key as a FrozenDict
        for k, x in v.items():
            _encodable(k, f"{path}.<key>", allow_tags, depth + 1)
            _encodable(x, f"{path}.{k}", allow_tags, depth + 1)
    elif isinstance(v, cbor2.CBORTag) and allow_tags:
        _encodable(v.value, f"{path}<tag {v.tag}>", allow_tags, depth + 1)
    else:
        raise CborError("ERR_CBOR_UNENCODABLE", f"{path}: a {type(v).__name__} has no det-CBOR form")


_FLOAT = {25: "half", 26: "single", 27: "double"}


def _item(b, p, depth, tags):
    """Checks the item starting at b[p] and returns the offset just after it."""
    if p >= len(b):
        raise CborError("ERR_CBOR_TRUNCATED", f"at byte {p}: input ends where a data item was expected")
    start = p
    major, ai = b[p] >> 5, b[p] & 31
    if major == 7:
        # jcp §3: "no floats, bools, or nulls in a signed core"
        if ai in _FLOAT:
            raise CborError("ERR_CBOR_FLOAT", f"at byte {p}: a {_FLOAT[ai]}-precision float")
        if ai == 31:
            raise CborError("ERR_CBOR_INDEFINITE_LENGTH", f"at byte {p}: a break code (0xff) outside any indefinite-length item")
        if ai >= 28:
            raise CborError("ERR_CBOR_RESERVED_ADDITIONAL_INFO", f"at byte {p}: reserved additional information {ai}")
        raise CborError("ERR_CBOR_SIMPLE_VALUE", f"at byte {p}: a simple value (false, true, null, undefined or another)")
    p += 1
    if ai < 24:
        arg = ai
    elif ai <= 27:
        n = 1 << (ai - 24)  # 1, 2, 4 or 8 bytes
        if len(b) - p < n:
            raise CborError("ERR_CBOR_TRUNCATED", f"at byte {p}: input ends inside a {n}-byte argument")
        arg = int.from_bytes(b[p:p + n], "big")
        p += n
        # jcp §3: "shortest integer form" — for arguments, lengths and tag numbers alike (RFC 8949 §4.2.1)
        if arg < (24 if n == 1 else 1 << (4 * n)):
            raise CborError("ERR_CBOR_NOT_SHORTEST", f"at byte {start}: {arg} in a {n}-byte argument")
    elif ai == 31:
        # RFC 8949 §4.2.1: "Indefinite-length items MUST NOT appear"
        raise CborError("ERR_CBOR_INDEFINITE_LENGTH", f"at byte {start}: indefinite length")
    else:
        raise CborError("ERR_CBOR_RESERVED_ADDITIONAL_INFO", f"at byte {start}: reserved additional information {ai}")
    if major in (0, 1):
        return p
    if major in (2, 3):
        if arg > len(b) - p:
            raise CborError("ERR_CBOR_TRUNCATED", f"at byte {start}: a string of {arg} bytes, {len(b) - p} left")
        if major == 3:
            try:
                b[p:p + arg].decode("utf-8")  # strict: no overlongs, no surrogates (RFC 3629)
            except UnicodeDecodeError:
                raise CborError("ERR_CBOR_INVALID_UTF8", f"at byte {p}: a text string that is not valid UTF-8") from None
        return p + arg
    if major == 6:
        # jcp §3: a signed core carries no tags; an envelope names the few it allows (COSE_Sign1 is tag 18)
        if arg not in tags:
            raise CborError("ERR_CBOR_TAG", f"at byte {start}: tag {arg} is not allowed here")
        if depth >= MAX_DEPTH:
            raise CborError("ERR_CBOR_TOO_DEEP", f"at byte {start}: nesting deeper than {MAX_DEPTH}")
        return _item(b, p, depth + 1, tags)
    if depth >= MAX_DEPTH:
        raise CborError("ERR_CBOR_TOO_DEEP", f"at byte {start}: nesting deeper than {MAX_DEPTH}")
    # every element takes at least one byte (a map entry two): a length the input cannot hold is truncation
    if arg * (2 if major == 5 else 1) > len(b) - p:
        raise CborError("ERR_CBOR_TRUNCATED", f"at byte {start}: {arg} entries declared, {len(b) - p} byte(s) left")
    if major == 4:
        for _ in range(arg):
            p = _item(b, p, depth + 1, tags)
        return p
    prev = None
    for i in range(arg):
        ks = p
        p = _item(b, p, depth + 1, tags)
        key = b[ks:p]
        if prev is not None:
            # jcp §3: "length-first then bytewise key order", strictly rising
            if key == prev:
                raise CborError("ERR_CBOR_DUPLICATE_KEY", f"at byte {ks}: map key #{i} repeats the key before it")
            if (len(key), key) < (len(prev), prev):
                raise CborError("ERR_CBOR_UNSORTED_KEYS", f"at byte {ks}: map key #{i} sorts before the key before it (length-first, then bytewise)")
        prev = key
        p = _item(b, p, depth + 1, tags)
    return p
