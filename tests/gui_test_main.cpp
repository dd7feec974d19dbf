// The one main() of the GUI tests (qatdoctor_add_gui_test): a QApplication on the offscreen
// platform unless the caller picked one (gtest discovery runs the binary at build time, with no
// display), and the settings, recent files and autosave of any main window a test opens kept in
// a temporary folder, out of the user's.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir home;
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
        qputenv(var, QDir(home.path()).filePath(var).toLocal8Bit());
    QApplication app(argc, argv);
    QApplication::setOrganizationName("QATDoctorTests");
    QApplication::setApplicationName(QATDOCTOR_GUI_TEST_NAME);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
