// The one folder walk: hidden entries left out, folders past the depth listed but not entered,
// special files listed but never opened, and the entry limit said.
#include "core/common/folder_walk.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace qatdoctor::core {
namespace {

namespace fs = std::filesystem;

TEST(FolderWalk, OneWalkUnderOneSetOfLimits)
{
    const fs::path root = fs::temp_directory_path() / ("qatdoctor_walk_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "a/b/c");
    fs::create_directories(root / ".git/objects");
    std::ofstream(root / "train.log") << "loss: 1\n";
    std::ofstream(root / "a/b/c/deep.log") << "loss: 1\n";
    std::ofstream(root / ".git/objects/x") << "x";
    ASSERT_EQ(::mkfifo((root / "pipe.log").c_str(), 0600), 0);

    FolderWalkLimits limits;
    limits.maxDepth = 1;  // root's children are depth 0: a/ entered, a/b/ listed, not entered
    const FolderWalk walk = walkFolder(root.string(), limits);
    std::set<std::string> names;
    for (const FolderEntry& e : walk.entries) {
        names.insert(fs::relative(e.path, root).generic_string());
        if (e.name == "pipe.log") EXPECT_EQ(e.kind, FolderEntry::Kind::Special);
        if (e.name == "train.log") EXPECT_EQ(e.kind, FolderEntry::Kind::File);
    }
    EXPECT_EQ(names, (std::set<std::string>{"a", "a/b", "pipe.log", "train.log"}));
    EXPECT_FALSE(walk.capped);

    limits.maxEntries = 2;
    const FolderWalk capped = walkFolder(root.string(), limits);
    EXPECT_TRUE(capped.capped);
    EXPECT_EQ(capped.entries.size(), 2u);
    fs::remove_all(root);
}

}  // namespace
}  // namespace qatdoctor::core
