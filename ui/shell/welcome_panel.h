// Shown while nothing is loaded: what the tool does and the ways to start (open a folder, a
// model, the bundled demo, or a recent item).
#pragma once

#include <QWidget>

class QListWidget;

namespace qatdoctor::ui {

class WelcomePanel : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePanel(bool demoAvailable, QWidget* parent = nullptr);
    void refreshRecent();

signals:
    void openFolderRequested();
    void openModelRequested();
    void openDemoRequested();
    void openPathRequested(const QString& path);

private:
    QListWidget* m_recent;
};

}  // namespace qatdoctor::ui
