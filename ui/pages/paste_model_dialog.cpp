#include "ui/pages/paste_model_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "core/analysis.h"
#include "core/artifacts/artifacts_api.h"

namespace qatdoctor::ui {
namespace {

// Live parsing runs on the GUI thread; beyond this size the summary waits for OK.
constexpr qsizetype kLiveParseLimit = 4 * 1024 * 1024;

}  // namespace

PasteModelDialog::PasteModelDialog(QWidget* parent)
    : QDialog(parent),
      m_edit(new QPlainTextEdit(this)),
      m_status(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      m_debounce(new QTimer(this))
{
    setWindowTitle(tr("Paste printed model"));
    resize(820, 560);
    auto* layout = new QVBoxLayout(this);
    auto* hint = new QLabel(tr("Paste the output of <code>print(qat_model)</code> (or part of it). "
                               "QAT Doctor only reads the text; nothing is executed."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_edit->setPlaceholderText(
        "(quant): QuantStub(\n  (activation_post_process): FakeQuantize(\n    "
        "fake_quant_enabled=tensor([1]), ...");
    layout->addWidget(m_edit, 1);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Analyze"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &PasteModelDialog::updateSummary);
    connect(m_edit, &QPlainTextEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    updateSummary();
}

QString PasteModelDialog::text() const
{
    return m_edit->toPlainText();
}

void PasteModelDialog::setText(const QString& text)
{
    m_edit->setPlainText(text);
    updateSummary();
}

QString PasteModelDialog::summary() const
{
    return m_status->text();
}

void PasteModelDialog::updateSummary()
{
    const QString text = m_edit->toPlainText();
    QPushButton* ok = m_buttons->button(QDialogButtonBox::Ok);
    if (text.trimmed().isEmpty()) {
        m_status->setText(tr("Waiting for text."));
        ok->setEnabled(false);
        return;
    }
    if (text.size() > kLiveParseLimit) {
        m_status->setText(tr("Large text: it is read when you press Analyze."));
        ok->setEnabled(true);
        return;
    }
    auto analysis = core::analyzePrintedText(text.toStdString(), "pasted model");
    if (!analysis) {
        m_status->setText(
            tr("Not readable as a printed model: %1").arg(QString::fromStdString(analysis.error().message)));
        ok->setEnabled(false);
        return;
    }
    const core::model::LayerTable& table = analysis->models.front();
    int quantized = 0;
    for (const auto& l : table.layers) quantized += (l.weightQuant || l.outputQuant) ? 1 : 0;
    QString s =
        tr("%n layer(s) read, %1 with quantizers.", "", static_cast<int>(table.layers.size())).arg(quantized);
    if (!table.warnings.empty())
        s += " " + tr("Warning: %1").arg(QString::fromStdString(table.warnings.front().message));
    QStringList ids;
    for (const core::Finding& f : analysis->findings) ids << QString::fromStdString(f.id);
    if (!ids.isEmpty()) s += " " + tr("Findings: %1.").arg(ids.join(", "));
    m_status->setText(s);
    ok->setEnabled(!table.layers.empty());
}

std::optional<QString> askForPrintedModel(QWidget* parent)
{
    PasteModelDialog dialog(parent);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    const QString text = dialog.text();
    if (text.trimmed().isEmpty()) return std::nullopt;
    return text;
}

}  // namespace qatdoctor::ui
