// Checkpoint files (core/checkpoint): the zip container through libzip or the legacy stream, the
// pickle, the tensors' shapes, strides and offsets against their storages, the quantizer table,
// the checkpoint lints, every tensor's values and the diff of the file with itself. The bytes go through a
// file, as a user's checkpoint does (the reader takes a path: libzip reads it, never all of it at once).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/checkpoint/checkpoint_diff.h"
#include "core/checkpoint/checkpoint_layers.h"
#include "core/checkpoint/checkpoint_lints.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace qatdoctor::core::checkpoint;
    static const std::string path =
        (std::filesystem::temp_directory_path() / ("qatdoctor_fuzz_" + std::to_string(getpid()) + ".pt"))
            .string();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
    auto read = readCheckpointLayers(path);
    if (read) {
        TensorReader reader(read->file);
        std::vector<qatdoctor::core::Warning> warnings;
        runCheckpointLints({read->file, read->table, reader, &warnings}, read->findings, read->evaluated);
        for (const TensorInfo& t : read->file.tensors) (void)reader.values(t);
        (void)diffCheckpoints(read->file, read->file);
    }
    return 0;
}
