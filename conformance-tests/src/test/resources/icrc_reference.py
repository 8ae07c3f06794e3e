#!/usr/bin/env python3
"""An independent RoCEv2 ICRC check, written from the recipe in IBTA Annex A17 / rxe_icrc.c and
nothing of softrnic's: CRC-32 (zlib) over 8 bytes of 0xff, the IP header with its variant fields set to
ones, the UDP header with the checksum set to ones, the BTH with byte 4 set to ones, and the rest of
the packet up to the ICRC, compared with the little-endian ICRC in the last four bytes.

Reads a classic little-endian pcap of Ethernet frames; prints "frame ok|bad" per RoCEv2 frame."""
import struct
import sys
import zlib


def frames(path):
    data = open(path, 'rb').read()
    assert struct.unpack('<I', data[:4])[0] == 0xa1b2c3d4, 'expects little-endian microsecond pcap'
    pos, n = 24, 0
    while pos + 16 <= len(data):
        caplen = struct.unpack('<I', data[pos + 8:pos + 12])[0]
        n += 1
        yield n, data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen


def icrc_ok(ip, version):
    if version == 4:
        ihl = (ip[0] & 0x0f) * 4
        total = struct.unpack('>H', ip[2:4])[0]
        masked = bytearray(ip[:ihl])
        masked[1] = 0xff
        masked[8] = 0xff
        masked[10:12] = b'\xff\xff'
    else:
        ihl = 40
        total = 40 + struct.unpack('>H', ip[4:6])[0]
        masked = bytearray(ip[:40])
        masked[0] |= 0x0f
        masked[1:4] = b'\xff\xff\xff'
        masked[7] = 0xff
    udp = bytearray(ip[ihl:ihl + 8])
    udp[6:8] = b'\xff\xff'
    bth = bytearray(ip[ihl + 8:ihl + 20])
    bth[4] = 0xff
    rest = ip[ihl + 20:total - 4]
    crc = zlib.crc32(b'\xff' * 8 + bytes(masked) + bytes(udp) + bytes(bth) + rest) & 0xffffffff
    return crc == struct.unpack('<I', ip[total - 4:total])[0]


for number, frame in frames(sys.argv[1]):
    offset, ethertype = 12, struct.unpack('>H', frame[12:14])[0]
    if ethertype == 0x8100:
        offset, ethertype = 16, struct.unpack('>H', frame[16:18])[0]
    ip = frame[offset + 2:]
    if ethertype == 0x0800 and ip[9] == 17:
        udp_at = (ip[0] & 0x0f) * 4
    elif ethertype == 0x86dd and ip[6] == 17:
        udp_at = 40
    else:
        continue
    if struct.unpack('>H', ip[udp_at + 2:udp_at + 4])[0] != 4791:
        continue
    print(number, 'ok' if icrc_ok(ip, 4 if ethertype == 0x0800 else 6) else 'bad')
