// qatdoctor: the desktop app. Options: --open PATH (repeatable), --compare PATH (repeatable: the
// attempt B to compare the open one with), --session FILE, --lang zh|en,
// --screenshot FILE [--page NAME] [--size WxH] (render after loading, save a PNG, exit), --watch
// (Watch mode on the opened logs).
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QScreen>
#include <QTimer>
#include <cstdio>
#include <string>
#include <vector>

#include "core/common/version.h"
#include "ui/common/live_watch_session.h"
#include "ui/main_window.h"
#include "ui/shell/language.h"

namespace {

// faq/ and demo/ live in share/qatdoctor when installed, in the source tree when developing.
QString findDataDir()
{
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).absoluteFilePath("../share/qatdoctor");
    if (QFileInfo::exists(installed + "/faq")) return QDir::cleanPath(installed);
    return QStringLiteral(QATDOCTOR_SOURCE_DATA_DIR);
}

bool saveScreenshot(qatdoctor::ui::MainWindow& window, const QString& path)
{
    const QPixmap pixmap = window.grab();
    if (!pixmap.save(path, "PNG")) {
        std::fprintf(stderr, "qatdoctor: cannot write screenshot %s\n", qPrintable(path));
        return false;
    }
    std::printf("screenshot: %s (%dx%d)\n", qPrintable(path), pixmap.width(), pixmap.height());
    return true;
}

// Qt takes "-session NAME" (also "--session NAME" and "--session=NAME") as its own X11
// session-management option and removes it from argv before our parser sees it, so the
// README's "--session FILE" did nothing. Every spelling is renamed to --qatdoctor-session=FILE
// (an alias of our option Qt does not know) in a copy of argv that lives as long as the app.
std::vector<char*> renameSessionOption(int argc, char** argv, std::vector<std::string>& storage)
{
    storage.clear();
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        const bool bare = a == "--session" || a == "-session";
        const bool joined = a.starts_with("--session=") || a.starts_with("-session=");
        if (bare && i + 1 < argc)
            storage.push_back("--qatdoctor-session=" + std::string(argv[++i]));
        else if (joined)
            storage.push_back("--qatdoctor-session=" + a.substr(a.find('=') + 1));
        else
            storage.push_back(a);
    }
    std::vector<char*> out;
    for (std::string& a : storage) out.push_back(a.data());
    out.push_back(nullptr);
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> argStorage;
    std::vector<char*> args = renameSessionOption(argc, argv, argStorage);
    int argCount = static_cast<int>(args.size()) - 1;
    QApplication app(argCount, args.data());
    QApplication::setOrganizationName("QATDoctor");
    QApplication::setApplicationName("qatdoctor");
    QApplication::setApplicationDisplayName("QAT Doctor");
    QApplication::setApplicationVersion(qatdoctor::core::kVersion);
    QApplication::setWindowIcon(QIcon(":/icons/qatdoctor.svg"));

    QCommandLineParser parser;
    parser.setApplicationDescription("QAT Doctor: troubleshooting assistant for quantization-aware training");
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption openOpt("open", "Open a log folder, model or debug file (repeatable).", "PATH");
    QCommandLineOption sessionOpt(QStringList{"session", "qatdoctor-session"},
                                  "Open a .qatdoctor session file.", "FILE");
    QCommandLineOption compareOpt(
        "compare", "Compare what is open (A) with this folder or file (B, after a change); repeatable.",
        "PATH");
    QCommandLineOption demoOpt("demo", "Open the bundled demo data.");
    QCommandLineOption langOpt("lang", "User interface language: zh or en.", "LANG");
    QCommandLineOption shotOpt("screenshot", "Render the window after loading, save a PNG, exit.", "FILE");
    QCommandLineOption pageOpt(
        "page",
        "Page to show: start, overview, wizard, curves, model, checkpoints, artifacts, "
        "fixedpoint, report; "
        "NAME:N also shows the page's N-th tab.",
        "NAME[:N]");
    QCommandLineOption watchOpt("watch",
                                "Start Watch mode on the opened logs: findings as the run writes them.");
    QCommandLineOption sizeOpt("size", "Window size for --screenshot, e.g. 1400x900.", "WxH", "1400x900");
    QCommandLineOption freshOpt("no-restore", "Do not restore the autosaved session.");
    parser.addOptions(
        {openOpt, compareOpt, sessionOpt, demoOpt, langOpt, shotOpt, pageOpt, sizeOpt, freshOpt, watchOpt});
    parser.addPositionalArgument("paths", "Inputs to open (same as --open).", "[PATH...]");
    parser.process(app);

    qatdoctor::ui::Language language;
    language.apply(qatdoctor::ui::Language::initialCode(parser.value(langOpt)));

    qatdoctor::ui::MainWindow window(findDataDir(), &language);
    const bool screenshot = parser.isSet(shotOpt);
    window.setHeadless(screenshot);
    if (screenshot) {
        const QStringList wh = parser.value(sizeOpt).split('x');
        if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
    }

    QStringList inputs = parser.values(openOpt) + parser.positionalArguments();
    const QStringList compared = parser.values(compareOpt);
    for (const QString& p : inputs + compared) {
        if (!QFileInfo::exists(p)) {
            std::fprintf(stderr, "qatdoctor: no such file or folder: %s\n", qPrintable(p));
            return 2;
        }
    }
    if (parser.isSet(sessionOpt)) {
        if (!window.openSession(parser.value(sessionOpt))) return 2;
    } else if (parser.isSet(demoOpt)) {
        window.openDemo();
    } else if (inputs.isEmpty() && !screenshot && !parser.isSet(freshOpt)) {
        window.restoreAutosave();
    }
    // inputs given with a session or the demo add to it; on their own they are the analysis
    if (!inputs.isEmpty()) {
        if (parser.isSet(sessionOpt) || parser.isSet(demoOpt))
            window.addPaths(inputs);
        else
            window.openPaths(inputs);
    }
    if (!compared.isEmpty()) window.compareWith(compared);
    if (parser.isSet(watchOpt))
        window.whenIdle([&window] { window.context()->liveWatch()->setActive(true); });
    window.show();

    if (!screenshot) return app.exec();

    // Headless check: wait for loading, show the page, let layouts and plots settle, grab.
    int exitCode = 0;
    const QString shotPath = parser.value(shotOpt);
    const QString page = parser.value(pageOpt);
    QTimer::singleShot(0, &window, [&] {
        window.whenIdle([&] {
            if (!page.isEmpty() && !window.showPage(page)) {
                std::fprintf(stderr, "qatdoctor: unknown page '%s'\n", qPrintable(page));
                exitCode = 2;
                app.quit();
                return;
            }
            QTimer::singleShot(800, &window, [&] {
                if (!saveScreenshot(window, shotPath)) exitCode = 1;
                if (!window.lastError().isEmpty()) exitCode = 1;
                app.quit();
            });
        });
    });
    const int rc = app.exec();
    return exitCode ? exitCode : rc;
}
