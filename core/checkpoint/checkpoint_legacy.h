// The two containers torch.save wrote before its zip archive (torch < 1.6), read without loading
// the file into memory: pickles are read through a window at their offset, storages are only
// located (their bytes are read later, one tensor at a time, by TensorReader).
//
// - The legacy stream (torch 0.4 to 1.5, and later with _use_new_zipfile_serialization=False):
//   five pickles back to back (magic number, protocol version, system info, the object, the
//   storage keys), then each storage as an 8-byte element count and its raw bytes.
// - The tar form (torch < 0.4, 2017's checkpoints): a tar archive whose members are `sys_info`
//   (a pickled dict), `pickle` (the object; each tensor is a bare persistent id), `tensors` (per
//   tensor a pickled (key, storage key, type), then its rank, sizes, strides and offset as raw
//   integers) and `storages` (per storage a pickled (key, location, type), an 8-byte count and its
//   bytes, then a pickled list of views into other storages).
#pragma once

#include <string>
#include <string_view>

#include "core/checkpoint/checkpoint_file.h"
#include "core/common/result.h"

namespace qatdoctor::core::checkpoint {

// The first bytes of a legacy stream: its first pickle, the magic number.
bool startsLegacyStream(std::string_view head);
// The first bytes of the tar form: a tar header (checksum right) for one of torch's members,
// or for the PAX header in front of one.
bool startsTorchTar(std::string_view head);

// Errors: "io.open", "checkpoint.format" (the file's layout), "checkpoint.pickle" and
// "checkpoint.truncated" (with the pickle and byte offset).
// The object's pickle is charged to budget.
Result<CheckpointFile> readLegacyStream(const std::string& path, MemoryBudget& budget);
Result<CheckpointFile> readLegacyTar(const std::string& path, MemoryBudget& budget);

}  // namespace qatdoctor::core::checkpoint
