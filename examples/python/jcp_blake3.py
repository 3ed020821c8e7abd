"""BLAKE3 in pure Python (no Debian package carries it), written from the BLAKE3 specification (the BLAKE3 paper,
"BLAKE3: one function, fast everywhere", §2–§2.6): hash, keyed_hash and derive_key, with extendable output. Slow
(a few hundred KiB a second) but enough for content ids: jcp §3 "A content id is blake3(canonical_cbor(value)),
lowercase-hex on the wire". Checked against the BLAKE3 team's test_vectors.json by selftest.py.
"""
IV = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19)
PERMUTATION = (2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8)
CHUNK_START, CHUNK_END, PARENT, ROOT = 1, 2, 4, 8
KEYED_HASH, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL = 16, 32, 64
BLOCK_LEN, CHUNK_LEN = 64, 1024
M32 = 0xFFFFFFFF


def _g(s, a, b, c, d, x, y):
    s[a] = (s[a] + s[b] + x) & M32
    v = s[d] ^ s[a]
    s[d] = ((v >> 16) | (v << 16)) & M32
    s[c] = (s[c] + s[d]) & M32
    v = s[b] ^ s[c]
    s[b] = ((v >> 12) | (v << 20)) & M32
    s[a] = (s[a] + s[b] + y) & M32
    v = s[d] ^ s[a]
    s[d] = ((v >> 8) | (v << 24)) & M32
    s[c] = (s[c] + s[d]) & M32
    v = s[b] ^ s[c]
    s[b] = ((v >> 7) | (v << 25)) & M32


def _compress(cv, m, counter, block_len, flags):
    """§2.2: the compression function; the 16 output words."""
    s = list(cv) + list(IV[:4]) + [counter & M32, (counter >> 32) & M32, block_len, flags]
    m = list(m)
    for r in range(7):
        _g(s, 0, 4, 8, 12, m[0], m[1])
        _g(s, 1, 5, 9, 13, m[2], m[3])
        _g(s, 2, 6, 10, 14, m[4], m[5])
        _g(s, 3, 7, 11, 15, m[6], m[7])
        _g(s, 0, 5, 10, 15, m[8], m[9])
        _g(s, 1, 6, 11, 12, m[10], m[11])
        _g(s, 2, 7, 8, 13, m[12], m[13])
        _g(s, 3, 4, 9, 14, m[14], m[15])
        if r < 6:
            m = [m[i] for i in PERMUTATION]
    return [s[i] ^ s[i + 8] for i in range(8)] + [s[i + 8] ^ cv[i] for i in range(8)]


def _words(block):
    block = block.ljust(BLOCK_LEN, b"\0")
    return [int.from_bytes(block[i:i + 4], "little") for i in range(0, BLOCK_LEN, 4)]


class _Output:
    """A node whose last compression is not yet made: its chaining value, or (at the root) the output bytes."""

    def __init__(self, cv, m, counter, block_len, flags):
        self.cv, self.m, self.counter, self.block_len, self.flags = cv, m, counter, block_len, flags

    def chaining_value(self):
        return _compress(self.cv, self.m, self.counter, self.block_len, self.flags)[:8]

    def root_bytes(self, length):
        """§2.6: the extendable output, the root node compressed again for each further 64 bytes."""
        out = bytearray()
        block = 0
        while len(out) < length:
            w = _compress(self.cv, self.m, block, self.block_len, self.flags | ROOT)
            out += b"".join(x.to_bytes(4, "little") for x in w)
            block += 1
        return bytes(out[:length])


def _chunk(data, counter, key, flags):
    """§2.3: one chunk of at most 1024 bytes, its blocks chained; the empty input is one empty block."""
    blocks = [data[i:i + BLOCK_LEN] for i in range(0, len(data), BLOCK_LEN)] or [b""]
    cv = list(key)
    for i, block in enumerate(blocks[:-1]):
        cv = _compress(cv, _words(block), counter, BLOCK_LEN, flags | (CHUNK_START if i == 0 else 0))[:8]
    last = blocks[-1]
    start = CHUNK_START if len(blocks) == 1 else 0
    return _Output(cv, _words(last), counter, len(last), flags | start | CHUNK_END)


def _subtree(data, first_chunk, key, flags):
    """§2.4: a left subtree holds the largest power of two of chunks that leaves the right one non-empty."""
    if len(data) <= CHUNK_LEN:
        return _chunk(data, first_chunk, key, flags)
    chunks = (len(data) + CHUNK_LEN - 1) // CHUNK_LEN
    left_chunks = 1 << ((chunks - 1).bit_length() - 1)
    split = left_chunks * CHUNK_LEN
    left = _subtree(data[:split], first_chunk, key, flags).chaining_value()
    right = _subtree(data[split:], first_chunk + left_chunks, key, flags).chaining_value()
    return _Output(list(key), left + right, 0, BLOCK_LEN, flags | PARENT)


def _hash(data, key, flags, length):
    return _subtree(bytes(data), 0, key, flags).root_bytes(length)


def blake3(data, length=32):
    """BLAKE3 hash mode (§2.5): `length` bytes of output (32 by default)."""
    return _hash(data, IV, 0, length)


def blake3_keyed(key, data, length=32):
    """BLAKE3 keyed_hash mode: a 32-byte key in place of the IV."""
    if len(key) != 32:
        raise ValueError("a BLAKE3 key is 32 bytes")
    return _hash(data, [int.from_bytes(key[i:i + 4], "little") for i in range(0, 32, 4)], KEYED_HASH, length)


def blake3_derive_key(context, material, length=32):
    """BLAKE3 derive_key mode: the context string hashed to a key, which hashes the key material."""
    ck = _hash(context.encode("utf-8"), IV, DERIVE_KEY_CONTEXT, 32)
    return _hash(material, [int.from_bytes(ck[i:i + 4], "little") for i in range(0, 32, 4)], DERIVE_KEY_MATERIAL, length)
