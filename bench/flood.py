"""make bench: N WebSocket upgrades to host:port that never authenticate, at most 2,000 open at
once, each held half a second after the server's answer, then closed (the storm a node must
give its memory back after). Usage: flood.py host port n"""
import asyncio
import sys

host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
request = (
    f"GET /api/v2/connect HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
).encode()


async def one(slots):
    async with slots:
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(request)
            await writer.drain()
            await asyncio.wait_for(reader.read(200), 2)
            await asyncio.sleep(0.5)
            writer.close()
        except (OSError, asyncio.TimeoutError):
            pass  # refused or evicted: the node protecting itself


async def main():
    slots = asyncio.Semaphore(2000)
    await asyncio.gather(*(one(slots) for _ in range(n)))


asyncio.run(main())
