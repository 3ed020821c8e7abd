#!/usr/bin/env python3
"""Step 2: step 1 and one op, ed25519.sign (RFC 8032 §5.1.6), with the refusal of a seed that is not 32 bytes."""
import sys

import cbor2
import nacl.signing


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = stdin.read(4)  # a frame is a 4-byte big-endian length ...
        if len(head) < 4:
            return  # the harness closed stdin: the run is over
        length = int.from_bytes(head, "big")
        if length > 1 << 20:
            sys.exit("a frame over 1 MiB")  # either side refuses one
        request = cbor2.loads(stdin.read(length))  # ... then that many bytes of canonical CBOR
        seq, op = request["seq"], request["op"]
        if op == "hello":
            answer = {"seq": seq, "ok": {"name": "step2", "version": "0.1.0", "protocol": "jcp-testee/1", "claims": []}}
        elif op == "ed25519.sign":
            seed, message = request["args"]["seed"], request["args"]["message"]
            if len(seed) != 32:
                answer = {"seq": seq, "error": {"code": "ERR_SEED_LENGTH", "message": "a seed is 32 bytes"}}
            else:
                answer = {"seq": seq, "ok": {"signature": nacl.signing.SigningKey(seed).sign(message).signature}}
        else:
            answer = {"seq": seq, "unimplemented": f"{op} is not implemented yet"}
        body = cbor2.dumps(answer, canonical=True)  # shortest forms, keys length-first: jcp §3
        stdout.write(len(body).to_bytes(4, "big") + body)
        stdout.flush()


main()
