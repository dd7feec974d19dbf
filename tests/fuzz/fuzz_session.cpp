// The GUI's .qatdoctor session file (ui/shell/session_file.cpp, QtCore only): the reader, a
// save/reload round trip of what it read (a session the app wrote must read back the same), and
// the wizard page's state inside it replayed on the shipped FAQ, as the wizard page restores it.
#include <QJsonDocument>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/faq/faq_base.h"
#include "core/faq/wizard_session_json.h"
#include "ui/shell/session_file.h"

using namespace qatdoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const core::faq::FaqLoad faqBase = core::faq::FaqBase::loadDirectory(QATDOCTOR_FAQ_DIR);
    const QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    auto session = ui::sessionFromJson(bytes, QStringLiteral("fuzz.qatdoctor"));
    if (!session) return 0;

    auto again = ui::sessionFromJson(ui::sessionToJson(*session), QStringLiteral("saved.qatdoctor"));
    if (!again || again->inputs != session->inputs || again->roles != session->roles ||
        again->expectPath != session->expectPath || again->notes != session->notes ||
        again->pages != session->pages)
        std::abort();  // a session the app saved would not reopen as it was

    const QJsonObject wizard = session->pages.value(QStringLiteral("wizard")).toObject();
    if (wizard.contains(QStringLiteral("session"))) {
        const QByteArray json =
            QJsonDocument(wizard.value(QStringLiteral("session")).toObject()).toJson(QJsonDocument::Compact);
        // As the wizard page does it, a discarded (unparsable) value included.
        const nlohmann::json j = nlohmann::json::parse(json.toStdString(), nullptr, false);
        (void)core::faq::sessionFromJson(j, &faqBase.base);
    }
    return 0;
}
