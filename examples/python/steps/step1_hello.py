#!/usr/bin/env python3
"""Step 1: the smallest jcp-testee/1 program. It answers the handshake, and `unimplemented` to every other op."""
import sys

import cbor2


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
            answer = {"seq": seq, "ok": {"name": "step1", "version": "0.1.0", "protocol": "jcp-testee/1", "claims": []}}
        else:
            answer = {"seq": seq, "unimplemented": f"{op} is not implemented yet"}
        body = cbor2.dumps(answer, canonical=True)  # shortest forms, keys length-first: jcp §3
        stdout.write(len(body).to_bytes(4, "big") + body)
        stdout.flush()


main()
