// The Report page: choose sections, language and paper, see a preview of the pages, and export
// the report as PDF, HTML or JSON (by the file name's extension) in the background.
//
// Page state (AppContext::pageState("report"), saved in the session file):
//   {"version": 1, "sections": ["summary", ...], "lang": "zh"|"en", "paper": "a4"|"letter"}
#pragma once

#include <QImage>
#include <QMap>
#include <vector>

#include "ui/pages/page.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace qatdoctor::ui {

class BackgroundJob;

class ReportPage : public Page {
    Q_OBJECT
public:
    explicit ReportPage(AppContext* context, QWidget* parent = nullptr);

    QString id() const override { return "report"; }
    QString title() const override { return tr("Report"); }

    // Writes the report to path without asking (tests, scripting); the result comes through
    // exportFinished. overwrite=false keeps an existing file (error "io.exists").
    void exportTo(const QString& path, bool overwrite);
    int previewPageCount() const { return static_cast<int>(m_previewImages.size()); }
    // The exported file the "Open the report" button opens ("" before an export succeeded).
    QString openableReport() const { return m_lastExported; }

public slots:
    // File > Export report…: asks for a file name, confirms overwriting, then writes in the background.
    void exportReport();
    void refreshPreview();

signals:
    void exportFinished(const QString& path, const QString& error);  // error empty = written
    void previewReady(int pages);

private:
    void buildUi();
    void saveState();
    void restoreState();
    void schedulePreview();
    void showPreview(std::vector<QImage> images, const QString& error);

    QMap<QString, QCheckBox*> m_sections;
    QComboBox* m_lang = nullptr;
    QComboBox* m_paper = nullptr;
    QPushButton* m_export = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_openExported = nullptr;  // shown after a successful export
    QPushButton* m_showFolder = nullptr;
    QString m_lastExported;
    QVBoxLayout* m_pagesLayout = nullptr;
    QTimer* m_previewTimer = nullptr;
    BackgroundJob* m_previewJob = nullptr;
    BackgroundJob* m_exportJob = nullptr;
    std::vector<QImage> m_previewImages;
    bool m_restoring = false;
};

}  // namespace qatdoctor::ui
