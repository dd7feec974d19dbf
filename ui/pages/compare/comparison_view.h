// The A | B view a page shows while two attempts are compared: a line saying what A and B are,
// a "Changed only" filter, and one table per diff (core::compare::DiffTable), changed rows tinted.
// The Overview, Model and Debug files pages each give it the diffs they are about.
#pragma once

#include <QWidget>
#include <vector>

#include "core/compare/diff_tables.h"
#include "ui/common/app_context.h"

class QCheckBox;
class QTabWidget;
class QLabel;
class QTableView;
class QVBoxLayout;

namespace qatdoctor::ui {

class ChangedOnlyFilter;
class DiffTableModel;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    // header: rich text above the tables ("A: run_v1 → B: run_v2 ..."); emptyText: shown when there
    // are no tables.
    void setTables(const QString& header, std::vector<core::compare::DiffTable> tables,
                   const QString& emptyText);
    void setChangedOnly(bool on);
    // Adds this view (or the page holding it) to tabs as its "A | B" tab (last), or takes it out.
    void showIn(QTabWidget* tabs, bool shown, QWidget* page = nullptr);
    // "A: name → B: name" and the comparison's summary sentence, as rich text.
    static QString header(const ComparisonState& state, core::Lang lang);

    // Introspection for tests: the tables shown and the rows each shows through the filter.
    int tableCount() const { return static_cast<int>(m_views.size()); }
    int visibleRows(int table) const;
    QTableView* view(int table) const { return m_views.at(static_cast<size_t>(table)); }

private:
    QLabel* m_header;
    QCheckBox* m_changedOnly;
    QWidget* m_body;
    QVBoxLayout* m_bodyLayout;
    std::vector<QTableView*> m_views;
    std::vector<ChangedOnlyFilter*> m_filters;
};

}  // namespace qatdoctor::ui
