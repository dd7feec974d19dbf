#include "ui/pages/model_page.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/common/background_job.h"
#include "ui/pages/compare/comparison_view.h"
#include "ui/pages/model/graph_view.h"
#include "ui/pages/model/layer_details.h"
#include "ui/pages/model/layer_table_model.h"

namespace qatdoctor::ui {

ModelPage::ModelPage(AppContext* context, QWidget* parent)
    : Page(context, parent),
      m_header(new QLabel(this)),
      m_filterEdit(new QLineEdit(this)),
      m_flaggedOnly(new QCheckBox(tr("Flagged only"), this)),
      m_tabs(new QTabWidget(this)),
      m_table(new QTableView(this)),
      m_graph(new GraphView(context, this)),
      m_compare(new ComparisonView(this)),
      m_details(new LayerDetails(context, this)),
      m_model(new LayerTableModel(this)),
      m_filter(new LayerFilterModel(this)),
      m_checksJob(new BackgroundJob(this))
{
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_filterEdit->setPlaceholderText(tr("Filter layers (name, op, dtype, flag, finding)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filter->setSourceModel(m_model);
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);  // file order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_tabs->addTab(m_table, tr("Layers"));
    m_tabs->addTab(m_graph, tr("Graph"));

    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_flaggedOnly);
    auto* expect = new QPushButton(tr("Expected dtypes…"), this);
    expect->setToolTip(tr(
        "Module name -> dtype you configured (e.g. int16); layers whose actual dtype differs are flagged"));
    connect(expect, &QPushButton::clicked, this, &ModelPage::editExpectations);
    filterRow->addWidget(expect);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(filterRow);
    leftLayout->addWidget(m_tabs, 1);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(splitter, 1);

    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &LayerFilterModel::setText);
    connect(m_flaggedOnly, &QCheckBox::toggled, m_filter, &LayerFilterModel::setFlaggedOnly);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { onCurrentRowChanged(); });
    // One click selects the layer; double-click (or Enter) on its finding opens the wizard.
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (index.column() == LayerTableModel::Finding) {
            const QString faq = index.data(LayerTableModel::FaqRole).toString();
            if (!faq.isEmpty()) openWizard(faq);
        }
    });
    connect(m_graph, &GraphView::layerActivated, this, [this](const QString& layer) {
        const QSignalBlocker block(m_graph);
        selectLayer(layer);
    });
    connect(m_details, &LayerDetails::wizardRequested, this, &ModelPage::openWizard);
    if (context) {
        context->announceJob(m_checksJob);
        connect(context, &AppContext::analysisChanged, this, [this] {
            reload();
            syncExpectations();
        });
        connect(context, &AppContext::pageStateChanged, this, [this](const QString& pageId) {
            if (pageId == id()) syncExpectations();
        });
        connect(context, &AppContext::langChanged, this, [this] {
            reload();
            updateComparison();
        });
        connect(context, &AppContext::comparisonChanged, this, [this] { updateComparison(); });
    }
    reload();
    updateComparison();
}

void ModelPage::updateComparison()
{
    const ComparisonPtr c = context() ? context()->comparison() : nullptr;
    m_compare->showIn(m_tabs, c != nullptr);
    if (!c) return;
    const core::Lang lang = context()->lang();
    std::vector<core::compare::DiffTable> tables;
    for (const core::compare::LayerTableDiff& d : c->comparison.models)
        tables.push_back(core::compare::layerDiffTable(d, lang));
    for (const core::compare::LayerTableDiff& d : c->comparison.checkpoints)
        tables.push_back(core::compare::layerDiffTable(d, lang));
    m_compare->setTables(
        ComparisonView::header(*c, lang), std::move(tables),
        tr("Neither side has a model or a checkpoint of one form to compare layer by layer."));
}

QIcon ModelPage::icon() const
{
    return QIcon(QStringLiteral(":/icons/page-model.svg"));
}

void ModelPage::reload()
{
    const AnalysisPtr analysis = context() ? context()->analysis() : nullptr;
    const core::model::LayerTable* table = analysis ? analysis->primaryModel() : nullptr;
    const core::Lang lang = context() ? context()->lang() : core::Lang::En;
    m_model->setTable(analysis, table, lang);
    m_table->resizeColumnsToContents();
    m_graph->setTable(analysis, table);
    m_details->showLayer(analysis, table, nullptr);
    if (!table) {
        m_header->setText(
            tr("<b>No model loaded.</b> Open an exported ONNX model (or a printed model) to see its "
               "per-layer dtypes and quantization findings."));
        return;
    }
    int flagged = 0;
    for (int r = 0; r < m_model->rowCount(); ++r)
        if (!m_model->findingsAt(r).empty()) ++flagged;
    QString text = QStringLiteral("<b>%1</b> — %2")
                       .arg(QString::fromStdString(table->sourcePath).toHtmlEscaped(),
                            QString::fromStdString(table->format));
    if (table->opset > 0) text += tr(", opset %1").arg(table->opset);
    if (!table->producer.empty())
        text += QStringLiteral(", ") + QString::fromStdString(table->producer).toHtmlEscaped();
    text += tr(" — %1 layers, %2 flagged").arg(table->layers.size()).arg(flagged);
    if (analysis->models.size() > 1) text += tr(" (%1 more models loaded)").arg(analysis->models.size() - 1);
    m_header->setText(text);
}

void ModelPage::onCurrentRowChanged()
{
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    const core::model::Layer* layer = current.isValid() ? m_model->layerAt(current.row()) : nullptr;
    m_details->showLayer(context() ? context()->analysis() : nullptr, m_model->table(), layer);
    if (layer) m_graph->centerOnLayer(QString::fromStdString(layer->name));
}

bool ModelPage::selectLayer(const QString& name)
{
    const int row = m_model->rowOf(name);
    if (row < 0) return false;
    QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) {  // hidden by the filter: clear it
        m_filterEdit->clear();
        m_flaggedOnly->setChecked(false);
        index = m_filter->mapFromSource(m_model->index(row, 0));
    }
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    return true;
}

void ModelPage::focusOn(const NavigationTarget& target)
{
    if (!target.layer.isEmpty()) selectLayer(target.layer);
}

void ModelPage::openWizard(const QString& faqTopic)
{
    if (!context() || faqTopic.isEmpty()) return;
    NavigationTarget target;
    target.page = QStringLiteral("wizard");
    target.faqTopic = faqTopic;
    context()->navigate(target);
}

}  // namespace qatdoctor::ui

namespace qatdoctor::ui {
namespace {
constexpr const char* kExpectedKey = "expected";  // page state: module -> dtype
}  // namespace

void ModelPage::editExpectations()
{
    const AnalysisPtr analysis = context() ? context()->analysis() : nullptr;
    if (!analysis || !analysis->primaryModel()) return;
    QJsonObject current;
    for (const auto& [module, dtype] : analysis->expectedDtypes)
        current.insert(QString::fromStdString(module), QString::fromStdString(dtype));
    if (current.isEmpty())  // start from what the model has, for the user to edit
        for (const auto& l : analysis->primaryModel()->layers)
            if (l.outputQuant)
                current.insert(QString::fromStdString(l.name),
                               QString::fromLatin1(core::model::dtypeName(l.outputDtype)));
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        this, tr("Expected dtypes"), tr("JSON object of module name -> dtype (int8, int16, float32, ...):"),
        QString::fromUtf8(QJsonDocument(current).toJson(QJsonDocument::Indented)), &ok);
    if (!ok) return;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (!doc.isObject()) {
        QMessageBox::warning(this, tr("Expected dtypes"),
                             tr("Not a JSON object: %1").arg(error.errorString()));
        return;
    }
    std::map<std::string, std::string> expected;
    const QJsonObject obj = doc.object();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (!core::model::parseDType(it.value().toString().toStdString())) {
            QMessageBox::warning(this, tr("Expected dtypes"),
                                 tr("Unknown dtype for %1: '%2'").arg(it.key(), it.value().toString()));
            return;
        }
        expected[it.key().toStdString()] = it.value().toString().toStdString();
    }
    setExpectations(expected);
}

void ModelPage::setExpectations(const std::map<std::string, std::string>& expected)
{
    if (!context()) return;
    QJsonObject obj;
    for (const auto& [module, dtype] : expected)
        obj.insert(QString::fromStdString(module), QString::fromStdString(dtype));
    QJsonObject state = context()->pageState(id());
    state.insert(kExpectedKey, obj);
    context()->setPageState(id(), state);  // emits pageStateChanged -> syncExpectations()
}

std::optional<std::map<std::string, std::string>> ModelPage::savedExpectations() const
{
    if (!context()) return std::nullopt;
    const QJsonObject state = context()->pageState(id());
    if (!state.value(kExpectedKey).isObject()) return std::nullopt;
    std::map<std::string, std::string> expected;
    const QJsonObject obj = state.value(kExpectedKey).toObject();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        // A hand-edited session may hold anything: keep only module -> known dtype.
        const std::string dtype = it.value().toString().toStdString();
        if (!it.key().isEmpty() && core::model::parseDType(dtype)) expected[it.key().toStdString()] = dtype;
    }
    return expected;
}

void ModelPage::syncExpectations()
{
    const auto expected = savedExpectations();
    const AnalysisPtr analysis = context() ? context()->analysis() : nullptr;
    if (!expected || !analysis || !analysis->primaryModel()) return;
    if (analysis->expectedDtypes == *expected) return;  // already applied (also ends the loop)
    applyExpectations(*expected);
}

void ModelPage::applyExpectations(const std::map<std::string, std::string>& expected)
{
    const AnalysisPtr analysis = context() ? context()->analysis() : nullptr;
    if (!analysis) return;
    m_checksJob->start<AnalysisPtr>(
        tr("Re-running checks with the expected dtypes"),
        [analysis, expected](const core::ProgressFn&) {
            auto copy = std::make_shared<core::Analysis>(*analysis);
            copy->expectedDtypes = expected;
            core::runChecks(*copy);
            return AnalysisPtr(std::move(copy));
        },
        [this, analysis](AnalysisPtr updated) {
            // A newer analysis (another load) wins; syncExpectations() re-applies to that one.
            if (context() && context()->analysis() == analysis) context()->setAnalysis(std::move(updated));
        });
}

}  // namespace qatdoctor::ui
