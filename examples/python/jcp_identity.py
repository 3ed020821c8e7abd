"""Identities (jcp §2) for the kit: Ed25519 through PyNaCl (libsodium), did:key with a base58btc written here.

This module stands for *your implementation*: it raises its own exceptions (DidError, LengthError) and knows nothing of
the suite's error codes. jcp_testee.py maps them onto the suite's codes, which is the adapter's job.

jcp §2: "Every actor ... is an Ed25519 key, expressed as a W3C did:key (multibase base58btc of the 0xed01 multicodec ||
the public key)." Multibase names base58btc by the prefix `z`; base58btc is the Bitcoin alphabet, big-endian, each
leading zero byte written as one `1`.
"""
import nacl.exceptions
import nacl.signing

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_INDEX = {c: i for i, c in enumerate(ALPHABET)}
DID_KEY_PREFIX = "did:key:z"
ED25519_PUB_MULTICODEC = b"\xed\x01"


class DidError(ValueError):
    """A text that is not the did:key of one Ed25519 public key."""


class LengthError(ValueError):
    """A seed, public key or signature of the wrong length; `what` says which."""

    def __init__(self, what, want, got):
        super().__init__(f"{what} must be {want} bytes, got {got}")
        self.what = what


def base58btc_encode(data):
    data = bytes(data)
    zeros = len(data) - len(data.lstrip(b"\0"))
    n = int.from_bytes(data, "big")
    digits = []
    while n:
        n, r = divmod(n, 58)
        digits.append(ALPHABET[r])
    return "1" * zeros + "".join(reversed(digits))


def base58btc_decode(text):
    if not text or any(c not in _INDEX for c in text):
        raise DidError("the base58btc part is empty or has a character outside the alphabet")
    zeros = len(text) - len(text.lstrip("1"))
    n = 0
    for c in text:
        n = n * 58 + _INDEX[c]
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    return b"\0" * zeros + body


def did_from_public_key(public_key):
    if len(public_key) != 32:
        raise LengthError("public key", 32, len(public_key))
    return DID_KEY_PREFIX + base58btc_encode(ED25519_PUB_MULTICODEC + bytes(public_key))


def public_key_from_did(did):
    if not did.startswith(DID_KEY_PREFIX):
        raise DidError('a did:key begins with "did:key:z" (multibase base58btc)')
    text = did[len(DID_KEY_PREFIX):]
    if len(text) > 64:  # 34 bytes are at most 47 base58 digits; refuse long text before the big-integer work
        raise DidError(f"the base58btc part has {len(text)} characters, far more than an Ed25519 did:key")
    data = base58btc_decode(text)
    # one text per key: the text must be the encoding of the bytes it decodes to
    if base58btc_encode(data) != text:
        raise DidError("the base58btc part is not in canonical form")
    if data[:2] != ED25519_PUB_MULTICODEC:
        raise DidError(f"the multicodec must be 0xed01 (ed25519-pub), got 0x{data[:2].hex()}")
    if len(data) != 34:
        raise DidError(f"the decoded did:key must be 34 bytes (0xed01 || 32-byte key), got {len(data)}")
    return data[2:]


def public_key_from_seed(seed):
    """RFC 8032 §5.1.5: the public key of a 32-byte secret key (a seed)."""
    if len(seed) != 32:
        raise LengthError("seed", 32, len(seed))
    return bytes(nacl.signing.SigningKey(bytes(seed)).verify_key)


def sign(seed, message):
    """RFC 8032 §5.1.6: the deterministic 64-byte signature of `message` under the seed's key."""
    if len(seed) != 32:
        raise LengthError("seed", 32, len(seed))
    return nacl.signing.SigningKey(bytes(seed)).sign(bytes(message)).signature


def verify(public_key, message, signature):
    """True when `signature` is the key's signature of `message` (libsodium's rule; see README "Ed25519")."""
    if len(signature) != 64:
        raise LengthError("signature", 64, len(signature))
    if len(public_key) != 32:
        raise LengthError("public key", 32, len(public_key))
    try:
        nacl.signing.VerifyKey(bytes(public_key)).verify(bytes(message), bytes(signature))
        return True
    except nacl.exceptions.BadSignatureError:
        return False
