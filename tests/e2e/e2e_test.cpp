// Runs the installed-shape executables as a user would: the GUI headless with --screenshot, the
// CLI on the demo. Exit codes and outputs are asserted, not just "it ran".
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <QImage>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Proc {
    int code = -1;
    std::string out;
};

// Runs a shell command (arguments are ours, not user data) and captures stdout.
Proc run(const std::string& cmd)
{
    Proc p;
    FILE* f = ::popen(cmd.c_str(), "r");
    if (!f) return p;
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) p.out.append(buf.data(), n);
    const int status = ::pclose(f);
    p.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return p;
}

fs::path tempDir()
{
    fs::path d = fs::temp_directory_path() / ("qatdoctor_e2e_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
}

const std::string kDemo = std::string(QATDOCTOR_SOURCE_DIR) + "/resources/demo";

}  // namespace

TEST(E2e, GuiScreenshotOfDemoShowsTheWindow)
{
    const fs::path png = tempDir() / "overview.png";
    // A private config home so the test never reads or writes the user's settings/autosave.
    const std::string env = "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=" + tempDir().string() +
                            "/cfg XDG_DATA_HOME=" + tempDir().string() + "/data ";
    Proc p = run(env + QATDOCTOR_GUI_BIN " --demo --lang en --screenshot " + png.string() +
                 " --page overview --size 1200x800 2>&1");
    ASSERT_EQ(p.code, 0) << p.out;
    QImage img(QString::fromStdString(png.string()));
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.width(), 1200);
    EXPECT_EQ(img.height(), 800);
    // Not a blank grab: the sidebar and page put many distinct colours on screen.
    QList<QRgb> seen;
    for (int y = 0; y < img.height(); y += 7)
        for (int x = 0; x < img.width(); x += 7)
            if (!seen.contains(img.pixel(x, y)) && seen.size() < 50) seen << img.pixel(x, y);
    EXPECT_GE(seen.size(), 10);
}

TEST(E2e, GuiRejectsMissingPathWithExitTwo)
{
    Proc p = run("QT_QPA_PLATFORM=offscreen " QATDOCTOR_GUI_BIN
                 " --open /no/such/run_folder --screenshot /dev/null 2>&1");
    EXPECT_EQ(p.code, 2);
    EXPECT_NE(p.out.find("/no/such/run_folder"), std::string::npos) << p.out;
}

TEST(E2e, GuiSessionOptionTakesItsFileAsTheReadmeSpellsIt)
{
    // "--session FILE" (not only "--session=FILE"): Qt would take it as its X11 -session option.
    // A session naming a missing input fails loudly, which shows the file was read.
    const fs::path session = tempDir() / "broken.qatdoctor";
    std::ofstream(session)
        << R"({"format":"qatdoctor-session","version":1,"inputs":["/no/such/session_input"]})";
    const std::string env = "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=" + tempDir().string() + "/cfg ";
    for (const std::string form : {" --session ", " --session=", " -session "}) {
        Proc p = run(env + QATDOCTOR_GUI_BIN " --no-restore" + form + session.string() +
                     " --screenshot /dev/null 2>&1");
        EXPECT_NE(p.out.find("/no/such/session_input"), std::string::npos) << form << ": " << p.out;
        EXPECT_NE(p.code, 0) << form;
        // and the session file keeps the input it could not load (no lost work)
        std::ifstream back(session);
        const std::string text((std::istreambuf_iterator<char>(back)), std::istreambuf_iterator<char>());
        EXPECT_NE(text.find("/no/such/session_input"), std::string::npos) << text;
    }
}

TEST(E2e, CliVersionAndBadPath)
{
    Proc v = run(QATDOCTOR_CLI_BIN " --version");
    EXPECT_EQ(v.code, 0);
    EXPECT_EQ(v.out.rfind("qatdoctor-cli ", 0), 0u) << v.out;
    Proc bad = run(QATDOCTOR_CLI_BIN " analyze /no/such/qat_model.onnx 2>&1");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.out.find("/no/such/qat_model.onnx"), std::string::npos) << bad.out;
}

TEST(E2e, CliAnalyzeDemoJson)
{
    Proc p = run(QATDOCTOR_CLI_BIN " analyze " + kDemo + "/logs " + kDemo +
                 "/model/demo_qat.onnx --json --fail-on info");
    ASSERT_TRUE(p.code == 0 || p.code == 1) << p.out;
    const auto j = nlohmann::json::parse(p.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << p.out.substr(0, 500);
    EXPECT_EQ(j["version"], 1);
    EXPECT_EQ(j["inputs"].size(), 2u);
    EXPECT_FALSE(j["runs"].empty());
    EXPECT_FALSE(j["layers"].empty());
    // With --fail-on info, any finding makes the exit code 1.
    EXPECT_EQ(p.code, j["findings"].empty() ? 0 : 1);
}

// With --json, stdout is the JSON stream: a hook's output goes to stderr (the real process, its
// real file descriptors: the child inherits them).
TEST(E2e, WatchHookOutputLeavesTheJsonStreamJson)
{
    const fs::path dir = tempDir() / "watch_hook";
    fs::create_directories(dir / "qat");
    {
        std::ofstream log(dir / "qat" / "train.log");
        log << "Epoch [1/3] Step [10/50] loss: 0.9 acc: 0.5\nEpoch [1/3] Step [20/50] loss: nan acc: 0.5\n";
    }
    const fs::path err = dir / "err.txt";
    Proc p = run(QATDOCTOR_CLI_BIN " watch " + dir.string() +
                 " --json --exec 'echo hook-said-this' --interval 0.1 --timeout 10 2>" + err.string());
    EXPECT_EQ(p.code, 1) << p.out;
    EXPECT_EQ(p.out.find("hook-said-this"), std::string::npos) << p.out;
    std::istringstream lines(p.out);
    for (std::string line; std::getline(lines, line);)
        EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << line;
    std::ifstream e(err);
    const std::string said{std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>()};
    EXPECT_NE(said.find("hook-said-this"), std::string::npos) << said;
    fs::remove_all(dir);
}
