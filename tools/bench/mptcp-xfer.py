#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# One MPTCP transfer for make bench-multipath, verified end to end on one connection:
#   mptcp-xfer.py server PORT            accept one connection, read to EOF, reply with
#                                        the byte count, print it
#   mptcp-xfer.py client ADDR PORT BYTES send BYTES, half-close, exit 0 only when the
#                                        server's count matches
# iperf3 under mptcpize does not do here: its receiver stops counting when the end of
# the test arrives on the separate control connection, while the tail of the data is
# still queued in the shapers, and the control connection opens subflows of its own.
import socket
import sys

IPPROTO_MPTCP = 262
CHUNK = 1 << 16


def server(port):
    lsk = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    lsk.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsk.bind(("0.0.0.0", port))
    lsk.listen(1)
    sk, _ = lsk.accept()
    buf = bytearray(CHUNK)
    got = 0
    while True:
        n = sk.recv_into(buf)
        if not n:
            break
        got += n
    sk.sendall(b"%d\n" % got)
    sk.close()
    print(got)


def client(addr, port, total):
    sk = socket.socket(socket.AF_INET, socket.SOCK_STREAM, IPPROTO_MPTCP)
    sk.connect((addr, port))
    buf = bytes(CHUNK)
    left = total
    while left:
        n = sk.send(buf[:min(left, CHUNK)])
        left -= n
    sk.shutdown(socket.SHUT_WR)
    reply = b""
    while True:
        r = sk.recv(64)
        if not r:
            break
        reply += r
    got = int(reply or b"-1")
    print("ok" if got == total else "fail", got, total)
    return 0 if got == total else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["server"] and len(sys.argv) == 3:
        server(int(sys.argv[2]))
    elif sys.argv[1:2] == ["client"] and len(sys.argv) == 5:
        sys.exit(client(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    else:
        sys.exit("usage: mptcp-xfer.py server PORT | client ADDR PORT BYTES")
