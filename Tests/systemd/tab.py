#!/usr/bin/env python3
"""A browser tab's WebSocket to todod-web, without a browser, for the systemd
tests: tab.py PORT KEY-FILE [hold SECONDS] prints the first message todod-web
relays (todod's greeting), or `close CODE REASON` if the tab is closed; with
`hold`, it then keeps the tab open that long (to be counted)."""
import base64, os, socket, struct, sys, time


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("todod-web closed the connection")
        data += chunk
    return data


def main():
    port = int(sys.argv[1])
    with open(sys.argv[2]) as file:  # never on a command line, where others could read it
        key = file.read().strip()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    nonce = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\n"
                  f"Sec-WebSocket-Version: 13\r\nCookie: todod-web={key}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += read_exactly(sock, 1)
    status = head.split(b"\r\n")[0].decode()
    if " 101 " not in status:
        print(status)
        return 1
    message = b""
    while True:
        first, second = read_exactly(sock, 2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", read_exactly(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", read_exactly(sock, 8))[0]
        payload = read_exactly(sock, length)
        opcode = first & 0x0F
        if opcode == 8:
            code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
            print(f"close {code} {payload[2:].decode()}")
            return 0
        if opcode in (9, 10):
            continue
        message += payload
        if first & 0x80:
            break
    print(message.decode())
    sys.stdout.flush()
    if len(sys.argv) > 4 and sys.argv[3] == "hold":
        time.sleep(float(sys.argv[4]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
