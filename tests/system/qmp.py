#!/usr/bin/python3
"""Minimal QMP client for the system tests: qmp.py SOCKET CMD [CMD...].

Each CMD is either a QMP command name with optional JSON arguments
("migrate {\"uri\": \"exec:cat > f\"}") or "hmp:<human monitor command>".
The result of each command is printed; HMP output verbatim.
"""
import json
import socket
import sys
import time


def connect(path, timeout=30):
    deadline = time.time() + timeout
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


class QMP:
    def __init__(self, path):
        self.sock = connect(path)
        self.buf = b""
        self.recv()  # greeting
        self.cmd("qmp_capabilities")

    def recv(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("QMP connection closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, name, args=None):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self.recv()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError("%s: %s" % (name, reply["error"]["desc"]))


def main():
    q = QMP(sys.argv[1])
    for c in sys.argv[2:]:
        if c.startswith("hmp:"):
            sys.stdout.write(q.cmd("human-monitor-command", {"command-line": c[4:]}))
        elif c.startswith("wait-migration"):
            while q.cmd("query-migrate").get("status") not in ("completed", "failed"):
                time.sleep(0.05)
            print(q.cmd("query-migrate").get("status"))
        else:
            name, _, args = c.partition(" ")
            print(json.dumps(q.cmd(name, json.loads(args) if args else None)))


if __name__ == "__main__":
    main()
