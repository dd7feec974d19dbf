// A log truncated while it is memory-mapped (logrotate's copytruncate, a restarted job writing
// with ">") used to end the process with SIGBUS on the next read past the new end. The guard
// gives zeros there and says so; the reader warns and reads the file again.
#include <fcntl.h>
#include <unistd.h>

#include "core/logs/mapped_file.h"
#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAsan = true;  // ASan keeps SIGBUS for itself
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif
#else
constexpr bool kUnderAsan = false;
#endif

TEST(ShrinkingFile, ReadsPastTheNewEndGiveZerosAndAreReported)
{
    if (kUnderAsan) GTEST_SKIP() << "AddressSanitizer owns SIGBUS";
    TempDir dir("shrink");
    const std::string path = dir / "train.log";
    writeBytes(path, std::string(1 << 20, 'x'));  // 1 MiB, 256 pages
    auto map = core::logs::MappedFile::open(path);
    ASSERT_TRUE(map) << map.error().toString();
    ASSERT_EQ(::truncate(path.c_str(), 4096), 0);  // rotated: one page left
    const std::string_view bytes = map->bytes();
    ASSERT_EQ(bytes.size(), 1u << 20);
    EXPECT_EQ(bytes[10], 'x');  // still inside the file
    EXPECT_FALSE(map->truncatedWhileRead());
    EXPECT_EQ(bytes[bytes.size() - 1], '\0');  // past the new end: zeros, no SIGBUS
    EXPECT_EQ(bytes[(1 << 19) + 3], '\0');
    EXPECT_TRUE(map->truncatedWhileRead());
}

}  // namespace
}  // namespace qatdoctor::test
