// The wizard's first screen: a search box with live results over the whole FAQ, and the
// symptoms by category with the most common first.
#pragma once

#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/common/text.h"

class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace qatdoctor::core::faq {
class FaqBase;
}

namespace qatdoctor::ui {

class SymptomPicker : public QWidget {
    Q_OBJECT
public:
    explicit SymptomPicker(QWidget* parent = nullptr);

    // base must outlive the picker (or the next setBase call).
    void setBase(const core::faq::FaqBase* base, core::Lang lang);
    void setLang(core::Lang lang);
    // The topics the current findings name (shown first, with the findings' titles).
    struct FindingTopic {
        QString topicId;
        QStringList findingTitles;
    };
    void setFindingTopics(std::vector<FindingTopic> topics);
    QString searchText() const;
    void setSearchText(const QString& text);
    void focusSearch();

signals:
    void topicChosen(const QString& topicId);
    void searchChanged(const QString& text);

private:
    void rebuild();
    void showBrowse();
    void showSearch(const QString& query);
    QTreeWidgetItem* topicItem(QTreeWidgetItem* parent, const QString& id, const QString& symptom,
                               const QString& detail, int popularity);
    void chooseCurrent();

    const core::faq::FaqBase* m_base = nullptr;
    core::Lang m_lang = core::Lang::En;
    std::vector<FindingTopic> m_findingTopics;
    QLineEdit* m_search;
    QTreeWidget* m_tree;
    QLabel* m_status;
};

}  // namespace qatdoctor::ui
