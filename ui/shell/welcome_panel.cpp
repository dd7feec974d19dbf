#include "ui/shell/welcome_panel.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/shell/recent_files.h"

namespace qatdoctor::ui {

WelcomePanel::WelcomePanel(bool demoAvailable, QWidget* parent) : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto* column = new QWidget(this);
    column->setMaximumWidth(620);
    auto* layout = new QVBoxLayout(column);
    auto* title = new QLabel(QStringLiteral("<h1>QAT Doctor</h1>"), column);
    auto* intro = new QLabel(
        tr("Open the folder your training wrote (float, calibration and QAT runs), an exported ONNX "
           "model, or the toolchain's debug text files. QAT Doctor reads them, flags what is off, "
           "and walks you through the FAQ with the answers your data can give."),
        column);
    intro->setWordWrap(true);
    layout->addWidget(title);
    layout->addWidget(intro);
    layout->addSpacing(12);

    auto addButton = [&](const QString& text, auto signal) {
        auto* b = new QPushButton(text, column);
        b->setMinimumHeight(40);
        connect(b, &QPushButton::clicked, this, signal);
        layout->addWidget(b);
        return b;
    };
    addButton(tr("Open log folder…"), &WelcomePanel::openFolderRequested);
    addButton(tr("Open model or debug file…"), &WelcomePanel::openModelRequested);
    auto* demo = addButton(tr("Open the demo (float, calibration and QAT runs + a QAT model)"),
                           &WelcomePanel::openDemoRequested);
    demo->setEnabled(demoAvailable);
    demo->setDefault(true);

    layout->addSpacing(12);
    layout->addWidget(new QLabel(tr("Recent:"), column));
    m_recent = new QListWidget(column);
    m_recent->setMaximumHeight(160);
    connect(m_recent, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { emit openPathRequested(item->data(Qt::UserRole).toString()); });
    layout->addWidget(m_recent);
    layout->addWidget(new QLabel(tr("Tip: drop folders and files anywhere on this window."), column));

    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(column, 3);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);
    refreshRecent();
}

void WelcomePanel::refreshRecent()
{
    m_recent->clear();
    for (const QString& path : RecentFiles::load()) {
        auto* item = new QListWidgetItem(QFileInfo(path).fileName() + "   —   " + path, m_recent);
        item->setData(Qt::UserRole, path);
    }
}

}  // namespace qatdoctor::ui
