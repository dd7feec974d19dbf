// Opening a whole project folder (logs next to the exported model and its printout): the model
// files go to their readers, not to the text-log scan.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/analysis.h"
#include "core/folder_input.h"

namespace fs = std::filesystem;
using namespace qatdoctor::core;

namespace {
const std::string kDemo = std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo";

bool hasFinding(const Analysis& a, const std::string& id)
{
    return std::any_of(a.findings.begin(), a.findings.end(), [&](const Finding& f) { return f.id == id; });
}
}  // namespace

TEST(ProjectFolder, DemoFolderLoadsLogsModelAndPrintoutEachWithItsReader)
{
    auto a = analyze({.paths = {kDemo}});
    ASSERT_TRUE(a) << a.error().toString();
    // The five runs of demo/logs, and no "run" made of the printed model's attributes.
    std::vector<std::string> runs;
    for (const auto& r : a->logs.runs) runs.push_back(r.name);
    EXPECT_EQ(runs.size(), 5u);
    EXPECT_TRUE(std::none_of(runs.begin(), runs.end(), [](const std::string& n) { return n == "model"; }));
    // The ONNX export and the printout, each read by its own reader, listed as inputs.
    ASSERT_EQ(a->models.size(), 2u);
    std::vector<std::string> formats;
    for (const auto& in : a->inputs) formats.push_back(in.format);
    EXPECT_EQ(formats, (std::vector<std::string>{"onnx", "printed_module", "log_folder"}));
    EXPECT_EQ(fs::path(a->inputs[0].path).filename(), "demo_qat.onnx");
    EXPECT_EQ(a->inputs[0].size, fs::file_size(kDemo + "/model/demo_qat.onnx"));
    // The printout has no march because it is not a training config: no finding about it.
    EXPECT_FALSE(hasFinding(*a, "config.march"));
    EXPECT_TRUE(hasFinding(*a, "train.batch_scaled_lr_unchanged"));
}

TEST(ProjectFolder, ClaimedFilesAreTheModelAndThePrintoutOnly)
{
    const auto claimed = findClaimedFiles(FolderScan(kDemo));
    ASSERT_EQ(claimed.size(), 2u);
    EXPECT_EQ(fs::path(claimed[0].path).filename(), "demo_qat.onnx");
    EXPECT_STREQ(claimed[0].loader->id, "onnx");
    EXPECT_EQ(fs::path(claimed[1].path).filename(), "demo_qat_printed.txt");
    EXPECT_STREQ(claimed[1].loader->id, "printed_module");
    EXPECT_FALSE(claimedByOtherReader(kDemo + "/logs/qat/train.log"));
}

TEST(ProjectFolder, FolderWithOnlyAModelLoadsIt)
{
    const fs::path dir = fs::path(testing::TempDir()) / "qatdoctor_model_only";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(kDemo + "/model/demo_qat.onnx", dir / "m.onnx");
    auto a = analyze({.paths = {dir.string()}});
    ASSERT_TRUE(a) << a.error().toString();
    EXPECT_TRUE(a->logs.runs.empty());
    ASSERT_EQ(a->models.size(), 1u);
    EXPECT_EQ(a->models[0].format, "onnx");
}

TEST(ProjectFolder, DamagedModelBesideLogsIsAWarningNamingItAndTheLogsStillLoad)
{
    const fs::path dir = fs::path(testing::TempDir()) / "qatdoctor_damaged_model";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(kDemo + "/logs", dir / "logs", fs::copy_options::recursive);
    {
        std::ifstream in(kDemo + "/model/demo_qat.onnx", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(dir / "cut.onnx", std::ios::binary) << bytes.substr(0, bytes.size() / 3);
    }
    auto a = analyze({.paths = {dir.string()}});
    ASSERT_TRUE(a) << a.error().toString();
    EXPECT_EQ(a->logs.runs.size(), 5u);
    EXPECT_TRUE(a->models.empty());
    ASSERT_EQ(a->warnings.size(), 1u);
    EXPECT_NE(a->warnings[0].toString().find("cut.onnx"), std::string::npos) << a->warnings[0].toString();
}

// One load walks the folder once: the probe, the claim of model files and the log reader all read
// the scan analyze() made. A log written after the scan is not seen by this load (the next poll of
// a live view sees it); when the reader walked again, it was.
TEST(ProjectFolder, OneLoadWalksTheFolderOnce)
{
    const fs::path root = fs::temp_directory_path() / ("qatdoctor_walk_once_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "float");
    std::ofstream(root / "float/train.log") << "Epoch[0] Step[1] GlobalStep[1] float_train: loss[0.9]\n"
                                               "Epoch[0] Step[2] GlobalStep[2] float_train: loss[0.7]\n";
    const FolderScan scan(root.string() + "//");  // spelled as users type it
    EXPECT_EQ(scan.root(), root.string());
    EXPECT_GT(probeProjectFolder(scan), 0);
    fs::create_directories(root / "qat");
    std::ofstream(root / "qat/train.log") << "Epoch[0] Step[1] GlobalStep[1] qat_train: loss[0.8]\n";
    Analysis a;
    ASSERT_TRUE(loadProjectFolder(scan, a, {}));
    ASSERT_EQ(a.logs.runs.size(), 1u);
    EXPECT_EQ(a.logs.runs[0].name, "float");
    fs::remove_all(root);
}
