"""Minimal TensorBoard event-file writer, without the tensorboard package.

Used by make_runs.py (real run logs) and make_bad_logs.py (corrupted copies), so that the C++
reader is tested against bytes we can describe exactly.

Framing (TFRecord), per record:
    uint64 LE  length of data
    uint32 LE  masked crc32c of the 8 length bytes
    bytes      data (one serialised `Event` message)
    uint32 LE  masked crc32c of data
    mask(crc) = (((crc >> 15) | (crc << 17)) + 0xa282ead8) mod 2**32

Protobuf fields written (tensorflow/core/util/event.proto, summary.proto, tensor.proto,
tensor_shape.proto), as `field number (wire type)`:
    Event:            1 wall_time (double, wire 1), 2 step (int64 varint, wire 0),
                      3 file_version (string, wire 2; first record only: "brain.Event:2"),
                      5 summary (Summary, wire 2)
    Summary:          1 value (repeated Summary.Value, wire 2)
    Summary.Value:    1 tag (string), 2 simple_value (float, wire 5),
                      8 tensor (TensorProto, wire 2), 9 metadata (SummaryMetadata, wire 2)
    SummaryMetadata:  1 plugin_data (PluginData, wire 2); PluginData: 1 plugin_name (string)
                      ("scalars", as TF2's tf.summary.scalar writes it)
    TensorProto:      1 dtype (enum varint; 1 = DT_FLOAT), 2 tensor_shape (TensorShapeProto,
                      wire 2, written empty = scalar), 5 float_val (packed repeated float, wire 2)
"""
import struct


def _make_crc32c_table():
    poly = 0x82F63B78  # Castagnoli polynomial, reflected
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _make_crc32c_table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame_record(data: bytes) -> bytes:
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data
            + struct.pack("<I", masked_crc32c(data)))


# --- protobuf wire encoding -------------------------------------------------------------

def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # int64 negative values are 10-byte varints
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _len_field(field: int, payload: bytes) -> bytes:
    return _key(field, 2) + _varint(len(payload)) + payload


def _scalar_value(tag: str, value: float) -> bytes:
    return _len_field(1, tag.encode()) + _key(2, 5) + struct.pack("<f", value)


def _tensor_value(tag: str, value: float) -> bytes:
    tensor = (_key(1, 0) + _varint(1)          # dtype = DT_FLOAT
              + _len_field(2, b"")             # tensor_shape {} -> scalar
              + _len_field(5, struct.pack("<f", value)))  # float_val, packed
    metadata = _len_field(1, _len_field(1, b"scalars"))
    return _len_field(1, tag.encode()) + _len_field(8, tensor) + _len_field(9, metadata)


def event_bytes(wall_time: float, step: int, scalars=(), tensors=(), file_version=None) -> bytes:
    """One serialised Event. scalars / tensors: iterables of (tag, value)."""
    msg = _key(1, 1) + struct.pack("<d", wall_time) + _key(2, 0) + _varint(step)
    if file_version is not None:
        msg += _len_field(3, file_version.encode())
    values = b"".join(_len_field(1, _scalar_value(t, v)) for t, v in scalars)
    values += b"".join(_len_field(1, _tensor_value(t, v)) for t, v in tensors)
    if values:
        msg += _len_field(5, values)
    return msg


class EventWriter:
    """Collects records in memory; `records` keeps each framed record for later inspection."""

    def __init__(self, wall_time: float):
        self.records = [frame_record(event_bytes(wall_time, 0, file_version="brain.Event:2"))]

    def add(self, wall_time: float, step: int, scalars=(), tensors=()):
        self.records.append(frame_record(event_bytes(wall_time, step, scalars, tensors)))

    def data(self) -> bytes:
        return b"".join(self.records)
