// The GUI's .qatdoctor session reader (ui/shell/session_file.cpp, QtCore only, so it runs in the
// builds without the GUI too): hostile and damaged session files are errors naming the file,
// every truncation of a real session terminates, and what the app saves reads back the same.
#include "ui/shell/session_file.h"

#include <gtest/gtest.h>

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <string>

#include "tests/hardening/hardening_util.h"

namespace qatdoctor::test {
namespace {

ui::Session sampleSession()
{
    ui::Session s;
    s.inputs = {QStringLiteral("/data/runs/no_gpu"), QStringLiteral("/data/models/qat_int16.onnx")};
    s.roles[QStringLiteral("run3")] = QStringLiteral("calibration");
    s.expectPath = QStringLiteral("/data/models/qat_int16.expect.json");
    s.pages[QStringLiteral("wizard")] = QJsonObject{{"view", "walk"}, {"reportItems", QJsonArray{1, "x"}}};
    s.notes = QStringLiteral("第二行\nnotes");
    return s;
}

TEST(SessionFile, SavedSessionReadsBackTheSame)
{
    TempDir dir("session");
    const QString path = QString::fromStdString(dir / "a.qatdoctor");
    const ui::Session s = sampleSession();
    ASSERT_TRUE(ui::writeSessionFile(path, s));
    auto back = ui::readSessionFile(path);
    ASSERT_TRUE(back) << back.error().toString();
    EXPECT_EQ(back->inputs, s.inputs);
    EXPECT_EQ(back->roles, s.roles);
    EXPECT_EQ(back->expectPath, s.expectPath);
    EXPECT_EQ(back->pages, s.pages);
    EXPECT_EQ(back->notes, s.notes);
}

TEST(SessionFile, EveryTruncationIsAnErrorOrASession)
{
    const QByteArray json = ui::sessionToJson(sampleSession());
    for (qsizetype cut = 0; cut < json.size(); ++cut) {
        auto s = ui::sessionFromJson(json.left(cut), QStringLiteral("cut.qatdoctor"));
        if (!s) EXPECT_NE(s.error().message.find("cut.qatdoctor"), std::string::npos) << s.error().message;
    }
}

TEST(SessionFile, HostileSessionsAreErrorsNamingTheFile)
{
    const std::string head = R"({"format": "qatdoctor-session", "pages": )";
    for (const std::string& text :
         {std::string(), std::string("[]"), std::string("{}"), std::string("{\"format\": 7}"),
          std::string(R"({"format": "qatdoctor-session", "version": 99})"),
          head + nestedObjects(100000) + "}", head + "{\"wizard\": " + nestedArrays(100000) + "}}",
          std::string("{\"format\": \"qatdoctor-session\"")}) {
        auto s = ui::sessionFromJson(QByteArray::fromStdString(text), QStringLiteral("bad.qatdoctor"));
        ASSERT_FALSE(s) << text.substr(0, 80);
        EXPECT_NE(s.error().message.find("bad.qatdoctor"), std::string::npos) << s.error().message;
    }
    // Wrong types inside a valid session are dropped, not errors: the session still opens.
    auto s = ui::sessionFromJson(
        R"({"format": "qatdoctor-session", "inputs": [1, "a", null, {}], "roles": {"r": 5},
                                     "expect": [], "pages": [], "notes": {}})",
        QStringLiteral("types.qatdoctor"));
    ASSERT_TRUE(s) << s.error().toString();
    EXPECT_EQ(s->inputs, QStringList{QStringLiteral("a")});
    EXPECT_TRUE(s->expectPath.isEmpty() && s->pages.isEmpty() && s->notes.isEmpty());
}

TEST(SessionFile, OversizedFileIsRefusedBeforeReading)
{
    TempDir dir("session_big");
    const std::string path = dir / "big.qatdoctor";
    writeBytes(path, "{");
    fs::resize_file(path, (64u << 20) + 1);  // sparse: nothing is written
    auto s = ui::readSessionFile(QString::fromStdString(path));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, "io.too_large");
}

// #48 item 7: a session listing one folder 100,000 times opens it once (the list is folded as it
// is read; ./logs and logs/ are the same folder).
TEST(SessionFile, OneFolderListedManyTimesIsOneInput)
{
    QJsonArray inputs;
    for (int i = 0; i < 100000; ++i)
        inputs.append(i % 2 ? QString("/data/run/logs/") : QString("/data/run/./logs"));
    inputs.append(QString("/data/run/model.onnx"));
    QJsonObject root;
    root["format"] = "qatdoctor-session";
    root["version"] = 1;
    root["inputs"] = inputs;
    auto s = ui::sessionFromJson(QJsonDocument(root).toJson(), "many.qatdoctor");
    ASSERT_TRUE(s) << s.error().toString();
    ASSERT_EQ(s->inputs.size(), 2);
    EXPECT_EQ(s->inputs[1], "/data/run/model.onnx");
}

}  // namespace
}  // namespace qatdoctor::test
