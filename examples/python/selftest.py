#!/usr/bin/env python3
"""The kit's own checks, against the third-party vectors the suite ships (vectors/external/): BLAKE3's
test_vectors.json (hash, keyed_hash, derive_key, 131-byte output), the did:key Ed25519 fixtures, and RFC 8949
Appendix A with the suite's non-canonical items. Prints a line per group; exits 1 if any check fails.

    /usr/bin/python3 examples/python/selftest.py [path/to/vectors/external]
"""
import base64
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout that runs it
sys.path.insert(0, HERE)

from jcp_blake3 import blake3, blake3_derive_key, blake3_keyed  # noqa: E402
from jcp_cbor import CborError, decode, encode  # noqa: E402
import jcp_identity as identity  # noqa: E402

VECTORS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "vectors", "external")
failures = []


def load(path):
    with open(os.path.join(VECTORS, path), encoding="utf-8") as f:
        return json.load(f)


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def blake3_vectors():
    v = load("blake3/test_vectors.json")
    key = v["key"].encode()
    for c in v["cases"]:
        m = bytes(i % 251 for i in range(c["input_len"]))
        n = c["input_len"]
        check(f"blake3 hash {n}", blake3(m, 131).hex(), c["hash"])
        check(f"blake3 32-byte hash {n}", blake3(m).hex(), c["hash"][:64])
        check(f"blake3 keyed_hash {n}", blake3_keyed(key, m, 131).hex(), c["keyed_hash"])
        check(f"blake3 derive_key {n}", blake3_derive_key(v["context_string"], m, 131).hex(), c["derive_key"])
    return f"BLAKE3: {len(v['cases'])} cases, hash, keyed_hash and derive_key"


def did_key_vectors():
    v = load("did-key/ed25519-x25519.json")
    for did, c in v.items():
        public_key = identity.public_key_from_seed(bytes.fromhex(c["seed"]))
        check(f"did:key of seed {c['seed'][:8]}", identity.did_from_public_key(public_key), did)
        pair = c["verificationKeyPair"]
        if "publicKeyBase58" in pair:
            check(f"publicKeyBase58 of {did}", identity.base58btc_encode(public_key), pair["publicKeyBase58"])
        else:  # RFC 8037 §2: an OKP JWK's x is the public key, base64url without padding
            check(f"publicKeyJwk.x of {did}", base64.urlsafe_b64encode(public_key).rstrip(b"=").decode(), pair["publicKeyJwk"]["x"])
        check(f"public key of {did}", identity.public_key_from_did(did), public_key)
    return f"did:key: {len(v)} Ed25519 fixtures, from the seed and parsed back"


def cbor_vectors():
    v = load("cbor/rfc8949-appendix-a.json")
    for c in v["canonical"]:
        data = bytes.fromhex(c["hex"])
        try:
            check(f"cbor {c['hex']} re-encoded", encode(decode(data)).hex(), c["hex"])
        except CborError as e:
            failures.append(f"cbor {c['hex']}: refused ({e.code}), but it is canonical")
    for group in ("refusedInSignedCore", "nonCanonical"):
        for c in v[group]:
            try:
                decode(bytes.fromhex(c["hex"]))
                failures.append(f"cbor {c['hex']} ({c['why']}): accepted")
            except CborError as e:
                check(f"cbor {c['hex']} refused with an ERR_CBOR_ code", e.code.startswith("ERR_CBOR_"), True)
    n = len(v["canonical"]), len(v["refusedInSignedCore"]) + len(v["nonCanonical"])
    return f"CBOR: {n[0]} canonical items re-encode to themselves, {n[1]} others refused"


for group in (blake3_vectors, did_key_vectors, cbor_vectors):
    before = len(failures)
    line = group()
    print(("ok   " if len(failures) == before else "FAIL ") + line)
for f in failures[:20]:
    print("  " + f)
sys.exit(1 if failures else 0)
