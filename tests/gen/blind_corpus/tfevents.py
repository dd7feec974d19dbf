"""A small TensorBoard event-file writer (the record framing and the Event/Summary protobufs
that torch.utils.tensorboard writes for add_scalar), with a reader used to check the files."""
import struct

_POLY = 0x82F63B78
_TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ _POLY if c & 1 else c >> 1
    _TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked_crc(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field, wire):
    return _varint((field << 3) | wire)


def _bytes_field(field, payload):
    return _key(field, 2) + _varint(len(payload)) + payload


def event_bytes(wall_time, step=None, file_version=None, scalars=None):
    msg = _key(1, 1) + struct.pack("<d", wall_time)
    if step is not None:
        msg += _key(2, 0) + _varint(int(step))
    if file_version is not None:
        msg += _bytes_field(3, file_version.encode())
    if scalars:
        summ = b""
        for tag, val in scalars:
            v = _bytes_field(1, tag.encode()) + _key(2, 5) + struct.pack("<f", float(val))
            summ += _bytes_field(1, v)
        msg += _bytes_field(5, summ)
    return msg


def record(data):
    ln = struct.pack("<Q", len(data))
    return ln + struct.pack("<I", masked_crc(ln)) + data + struct.pack("<I", masked_crc(data))


class EventWriter:
    def __init__(self, path, start_time):
        self.f = open(path, "wb")
        self.f.write(record(event_bytes(start_time, file_version="brain.Event:2")))

    def add_scalar(self, tag, value, step, wall_time):
        self.f.write(record(event_bytes(wall_time, step=step, scalars=[(tag, value)])))

    def close(self):
        self.f.close()


def read_events(path):
    """Parse back (tag, step, value, wall_time) for checking."""
    out = []
    data = open(path, "rb").read()
    pos = 0
    while pos < len(data):
        ln = struct.unpack("<Q", data[pos:pos + 8])[0]
        assert struct.unpack("<I", data[pos + 8:pos + 12])[0] == masked_crc(data[pos:pos + 8])
        body = data[pos + 12:pos + 12 + ln]
        assert struct.unpack("<I", data[pos + 12 + ln:pos + 16 + ln])[0] == masked_crc(body)
        pos += 16 + ln
        out.append(_parse_event(body))
    return out


def _read_varint(b, i):
    shift = res = 0
    while True:
        x = b[i]
        i += 1
        res |= (x & 0x7F) << shift
        shift += 7
        if not x & 0x80:
            return res, i


def _fields(b):
    i = 0
    while i < len(b):
        k, i = _read_varint(b, i)
        f, w = k >> 3, k & 7
        if w == 0:
            v, i = _read_varint(b, i)
        elif w == 1:
            v = b[i:i + 8]
            i += 8
        elif w == 5:
            v = b[i:i + 4]
            i += 4
        elif w == 2:
            n, i = _read_varint(b, i)
            v = b[i:i + n]
            i += n
        else:
            raise ValueError(w)
        yield f, w, v


def _parse_event(b):
    ev = {}
    for f, w, v in _fields(b):
        if f == 1:
            ev["wall_time"] = struct.unpack("<d", v)[0]
        elif f == 2:
            ev["step"] = v
        elif f == 3:
            ev["file_version"] = v.decode()
        elif f == 5:
            vals = []
            for f2, w2, v2 in _fields(v):
                tag = val = None
                for f3, w3, v3 in _fields(v2):
                    if f3 == 1:
                        tag = v3.decode()
                    elif f3 == 2:
                        val = struct.unpack("<f", v3)[0]
                vals.append((tag, val))
            ev["scalars"] = vals
    return ev


if __name__ == "__main__":
    assert crc32c(b"123456789") == 0xE3069283
    import tempfile, os
    p = os.path.join(tempfile.mkdtemp(), "events.out.tfevents.1.host")
    w = EventWriter(p, 1700000000.0)
    w.add_scalar("train/loss", 1.5, 10, 1700000001.0)
    w.add_scalar("train/loss", float("nan"), 11, 1700000002.0)
    w.close()
    print(read_events(p))
