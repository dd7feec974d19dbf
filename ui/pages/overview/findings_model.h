// The findings of an Analysis as a tree: one row per finding (most severe first, as the core
// sorted them), its evidence rows as children. Columns: severity, stage, text, id. Findings
// Watch mode makes while the run is written are inserted on top, newest first, marked live.
#pragma once

#include <QAbstractItemModel>

#include "ui/common/app_context.h"

namespace qatdoctor::ui {

class FindingsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, StageColumn, TextColumn, IdColumn, ColumnCount };
    enum Role {
        FindingIndexRole = Qt::UserRole + 1,  // int: the finding's row (live ones first)
        EvidenceIndexRole,                    // int: index into Finding::evidence, -1 on a finding row
        SeverityRole,                         // int: core::Severity
        LiveRole,                             // bool: found by Watch mode after the analysis
    };

    explicit FindingsModel(QObject* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis);
    void setLang(core::Lang lang);
    void addLiveFindings(const std::vector<core::Finding>& fired);
    void clearLive();
    bool isLive(const QModelIndex& index) const;

    // The finding / evidence behind an index (nullptr for an invalid index).
    const core::Finding* findingAt(const QModelIndex& index) const;
    const core::Evidence* evidenceAt(const QModelIndex& index) const;  // nullptr on a finding row
    QModelIndex indexOfFinding(const QString& id) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "qat · qat/train.log:30 · step 39 · loss = inf · first non-finite value"
    // The one way the app writes a piece of evidence: "train.log:42 · step 79 · loss = 953.5 · …".
    static QString evidenceText(const core::Evidence& e, core::Lang lang);

private:
    const std::vector<core::Finding>& findings() const;   // the analysis'
    size_t findingCount() const;                          // live + the analysis'
    size_t findingRowOf(const QModelIndex& index) const;  // the finding's row (an evidence row: its parent's)
    const core::Finding* findingOfRow(size_t row) const;

    AnalysisPtr m_analysis;
    std::vector<core::Finding> m_live;
    core::Lang m_lang = core::Lang::En;
};

}  // namespace qatdoctor::ui
