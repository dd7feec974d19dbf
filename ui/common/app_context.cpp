#include "ui/common/app_context.h"

#include <QDir>

#include "ui/common/live_watch_session.h"

namespace qatdoctor::ui {

AppContext::AppContext(QObject* parent) : QObject(parent), m_liveWatch(new LiveWatchSession(this)) {}

void AppContext::setAnalysis(AnalysisPtr analysis)
{
    m_analysis = std::move(analysis);
    emit analysisChanged(m_analysis);
}

void AppContext::setComparison(ComparisonPtr comparison)
{
    m_comparison = std::move(comparison);
    emit comparisonChanged(m_comparison);
}

void AppContext::setLang(core::Lang lang)
{
    if (lang == m_lang) return;
    m_lang = lang;
    emit langChanged(lang);
}

QString AppContext::faqDir() const
{
    return QDir(m_dataDir).filePath("faq");
}

QString AppContext::demoDir() const
{
    // Source tree: resources/demo; installed: share/qatdoctor/demo.
    const QString src = QDir(m_dataDir).filePath("resources/demo");
    return QDir(src).exists() ? src : QDir(m_dataDir).filePath("demo");
}

void AppContext::setPageState(const QString& pageId, const QJsonObject& state)
{
    m_pageState.insert(pageId, state);
    emit pageStateChanged(pageId);
}

void AppContext::restorePageState(const QJsonObject& all)
{
    // Pages that had state and have none now hear of it too: New session restores {}, and a
    // page keeping its old answers would carry one project's wizard walk into the next report.
    QStringList changed = m_pageState.keys();
    for (const QString& key : all.keys())
        if (!changed.contains(key)) changed << key;
    m_pageState = all;
    for (const QString& key : changed) emit pageStateChanged(key);
}

}  // namespace qatdoctor::ui
