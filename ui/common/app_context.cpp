#include "ui/common/app_context.h"

#include <QDir>

namespace qatdoctor::ui {

AppContext::AppContext(QObject* parent) : QObject(parent) {}

void AppContext::setAnalysis(AnalysisPtr analysis)
{
    m_analysis = std::move(analysis);
    emit analysisChanged(m_analysis);
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
    m_pageState = all;
    for (auto it = all.begin(); it != all.end(); ++it) emit pageStateChanged(it.key());
}

}  // namespace qatdoctor::ui
