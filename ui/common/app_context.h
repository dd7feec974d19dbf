// What every page shares: the current Analysis (immutable snapshot), the language, the data
// folders, per-page session state (saved in the .qatdoctor session file) and navigation.
// MainWindow owns the one AppContext; pages read from it and never own analysis logic.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

#include "core/analysis.h"
#include "core/common/text.h"
#include "core/compare/comparison.h"
#include "ui/common/navigation_target.h"

namespace qatdoctor::ui {

class BackgroundJob;
class LiveWatchSession;
using AnalysisPtr = std::shared_ptr<const core::Analysis>;

// The attempt the open one (A) is compared with (File ▸ Compare with…): B's paths and analysis,
// and the comparison A → B that the A | B views, the curves' dashed overlay and the report read.
struct ComparisonState {
    QStringList paths;
    AnalysisPtr other;
    core::compare::Comparison comparison;
};
using ComparisonPtr = std::shared_ptr<const ComparisonState>;

class AppContext : public QObject {
    Q_OBJECT
public:
    explicit AppContext(QObject* parent = nullptr);

    AnalysisPtr analysis() const { return m_analysis; }
    void setAnalysis(AnalysisPtr analysis);

    // null when nothing is compared
    ComparisonPtr comparison() const { return m_comparison; }
    void setComparison(ComparisonPtr comparison);

    // Watch mode: the live watch over the analysis' log folder the pages share.
    LiveWatchSession* liveWatch() const { return m_liveWatch; }

    core::Lang lang() const { return m_lang; }
    void setLang(core::Lang lang);

    // Folder holding faq/ and demo/ (source tree in development, share/qatdoctor installed).
    QString dataDir() const { return m_dataDir; }
    void setDataDir(const QString& dir) { m_dataDir = dir; }
    QString faqDir() const;
    QString demoDir() const;

    // Free-form state a page wants kept in the session file (wizard answers, notes, choices).
    QJsonObject pageState(const QString& pageId) const { return m_pageState.value(pageId).toObject(); }
    void setPageState(const QString& pageId, const QJsonObject& state);
    QJsonObject allPageState() const { return m_pageState; }
    void restorePageState(const QJsonObject& all);

    // Ask the main window to re-run the checks with a run's role changed by the user.
    void requestRoleChange(const QString& run, const QString& role) { emit roleChangeRequested(run, role); }
    // Ask the main window to drop one input (as opened) and analyse the rest again.
    void requestInputRemoval(const QString& path) { emit inputRemovalRequested(path); }
    void navigate(const NavigationTarget& target) { emit navigationRequested(target); }
    // Pages announce their BackgroundJob once; the status bar then shows its progress and a
    // cancel button whenever it runs.
    void announceJob(BackgroundJob* job) { emit jobAnnounced(job); }

signals:
    void analysisChanged(qatdoctor::ui::AnalysisPtr analysis);
    void comparisonChanged(qatdoctor::ui::ComparisonPtr comparison);
    void langChanged(qatdoctor::core::Lang lang);
    void pageStateChanged(const QString& pageId);
    void roleChangeRequested(const QString& run, const QString& role);
    void inputRemovalRequested(const QString& path);
    void navigationRequested(const qatdoctor::ui::NavigationTarget& target);
    void jobAnnounced(qatdoctor::ui::BackgroundJob* job);

private:
    AnalysisPtr m_analysis;
    ComparisonPtr m_comparison;
    core::Lang m_lang = core::Lang::En;
    QString m_dataDir;
    QJsonObject m_pageState;
    LiveWatchSession* m_liveWatch = nullptr;
};

}  // namespace qatdoctor::ui
