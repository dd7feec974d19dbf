#include "ui/pages/model/layer_details.h"

#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/common/app_context.h"
#include "ui/common/background_job.h"
#include "ui/plots/weight_view.h"

namespace qatdoctor::ui {
namespace {

using WeightsResult = std::shared_ptr<core::Result<core::model::LayerWeights>>;

QString qs(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString quantHtml(const core::model::QuantParams& q)
{
    QString out = QStringLiteral("<table cellspacing=2>");
    auto row = [&](const QString& k, const QString& v) {
        out += QStringLiteral("<tr><td><i>%1</i></td><td>%2</td></tr>").arg(k, v);
    };
    row(QObject::tr("dtype"), QString::fromLatin1(core::model::dtypeName(q.dtype)));
    row(QObject::tr("granularity"),
        q.perChannel() ? QObject::tr("per-channel, axis %1, %2 channels").arg(q.axis).arg(q.scales.size())
                       : QObject::tr("per-tensor"));
    if (!q.scales.empty()) {
        const auto [lo, hi] = std::minmax_element(q.scales.begin(), q.scales.end());
        row(QObject::tr("scale"), q.scales.size() == 1
                                      ? QString::number(*lo, 'g', 6)
                                      : QStringLiteral("%1 … %2").arg(*lo, 0, 'g', 5).arg(*hi, 0, 'g', 5));
    }
    if (!q.zeroPoints.empty()) {
        const auto [lo, hi] = std::minmax_element(q.zeroPoints.begin(), q.zeroPoints.end());
        row(QObject::tr("zero point"),
            *lo == *hi ? QString::number(*lo) : QStringLiteral("%1 … %2").arg(*lo).arg(*hi));
    }
    if (q.qmin || q.qmax)
        row(QObject::tr("integer range"), QStringLiteral("[%1, %2]")
                                              .arg(q.qmin ? QString::number(*q.qmin) : QStringLiteral("-"),
                                                   q.qmax ? QString::number(*q.qmax) : QStringLiteral("-")));
    if (!q.observer.empty()) row(QObject::tr("quantizer"), qs(q.observer));
    if (!q.scaleSource.empty()) row(QObject::tr("scale from"), qs(q.scaleSource));
    return out + QStringLiteral("</table>");
}

}  // namespace

LayerDetails::LayerDetails(AppContext* context, QWidget* parent)
    : QWidget(parent),
      m_context(context),
      m_text(new QTextBrowser(this)),
      m_weightView(new WeightView(this)),
      m_job(new BackgroundJob(this))
{
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("faq")) emit wizardRequested(url.path());
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 3);
    layout->addWidget(m_weightView, 2);
    connect(m_weightView, &WeightView::weightsShown, this, &LayerDetails::weightsShown);
    if (m_context) m_context->announceJob(m_job);
    showLayer(nullptr, nullptr, nullptr);
}

WeightHistogram* LayerDetails::histogram() const
{
    return m_weightView->histogram();
}

void LayerDetails::showLayer(std::shared_ptr<const core::Analysis> analysis,
                             const core::model::LayerTable* table, const core::model::Layer* layer)
{
    m_analysis = std::move(analysis);
    m_table = table;
    m_layer = layer;
    m_job->cancel();
    renderText();
    if (!layer || layer->weightDtype == core::model::DType::Unknown) {
        m_weightView->showMessage(
            layer ? tr("this layer has no weight")
                  : tr("Select a layer to see its weights against the quantization grid"));
        return;
    }
    if (!table || !table->graph) {
        m_weightView->showMessage(tr("weights are not available for this source"));
        return;
    }
    m_weightView->showMessage(tr("reading weights…"));
    auto keep = m_analysis;
    const core::model::LayerTable* t = table;
    const core::model::Layer* l = layer;
    m_job->start<WeightsResult>(
        tr("Reading weights of %1").arg(QString::fromStdString(layer->name)),
        [keep, t, l](const core::ProgressFn&) {
            return std::make_shared<core::Result<core::model::LayerWeights>>(
                core::model::readLayerWeights(*t, *l));
        },
        [this](WeightsResult r) {
            if (!r->ok()) {
                m_weightView->showMessage(QString::fromStdString(r->error().message));
                return;
            }
            if (!m_layer) return;
            m_weightView->showWeights(
                std::make_shared<const core::model::LayerWeights>(std::move(r->value())),
                m_layer->weightQuant);
        });
}

void LayerDetails::renderText()
{
    if (!m_layer) {
        m_text->setHtml(
            QStringLiteral("<p><i>%1</i></p>").arg(tr("Select a layer to see its quantization parameters.")));
        return;
    }
    const core::model::Layer& l = *m_layer;
    QString html =
        QStringLiteral("<h3>%1</h3><p>%2 <code>%3</code></p>").arg(qs(l.name), qs(l.op), qs(l.source.node));
    QStringList inputs;
    for (auto d : l.inputDtypes) inputs << QString::fromLatin1(core::model::dtypeName(d));
    html += QStringLiteral("<p><b>%1</b> %2<br><b>%3</b> %4</p>")
                .arg(tr("Inputs:"), inputs.join(QStringLiteral(", ")), tr("Output:"),
                     QString::fromLatin1(core::model::dtypeName(l.outputDtype)));
    if (l.weightQuant)
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Weight quantizer")) + quantHtml(*l.weightQuant);
    else if (l.weightDtype != core::model::DType::Unknown)
        html += QStringLiteral("<p><b>%1</b> %2 (%3)</p>")
                    .arg(tr("Weight:"), QString::fromLatin1(core::model::dtypeName(l.weightDtype)),
                         tr("not quantized in this graph"));
    if (l.outputQuant)
        html += QStringLiteral("<h4>%1</h4>").arg(tr("Output quantizer")) + quantHtml(*l.outputQuant);
    else
        html += QStringLiteral("<p>%1</p>").arg(tr("Output not quantized (high precision)."));
    if (!l.flags.empty()) {
        QStringList flags;
        for (const auto& f : l.flags) flags << qs(f);
        html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Flags:"), flags.join(QStringLiteral(", ")));
    }
    if (m_analysis) {
        const core::Lang lang = m_context ? m_context->lang() : core::Lang::En;
        for (const core::Finding& f : m_analysis->findings)
            for (const core::Evidence& e : f.evidence)
                if (e.layer == l.name) {
                    html += QStringLiteral("<hr><p><b>⚠ %1</b><br>%2<br><i>%3</i></p>")
                                .arg(qs(f.title.in(lang)), qs(f.message.in(lang)), qs(e.detailIn(lang)));
                    if (!f.faq.empty())
                        html += QStringLiteral("<p><a href=\"faq:%1\">%2</a></p>")
                                    .arg(qs(f.faq), tr("Open in wizard"));
                    break;
                }
    }
    m_text->setHtml(html);
}

}  // namespace qatdoctor::ui
