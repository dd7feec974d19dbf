#include "ui/pages/fixedpoint/simulation_settings.h"

#include <QJsonArray>
#include <algorithm>

namespace qatdoctor::ui {

QJsonObject SimulationSettings::toJson() const
{
    return {{"model", model},
            {"input", input},
            {"requant", requant},
            {"colour", colour},
            {"threads", threads},
            {"sensitivity", sensitivity},
            {"int16", QJsonArray::fromStringList(int16)},
            {"float", QJsonArray::fromStringList(floatLayers)}};
}

std::optional<SimulationSettings> SimulationSettings::fromJson(const QJsonObject& state)
{
    SimulationSettings s;
    s.model = state.value("model").toString();
    if (s.model.isEmpty()) return std::nullopt;
    s.input = state.value("input").toString();
    s.requant = state.value("requant").toInt();
    s.colour = state.value("colour").toInt();
    s.threads = std::clamp(state.value("threads").toInt(1), 1, 64);
    s.sensitivity = state.value("sensitivity").toBool();
    for (const QJsonValue& v : state.value("int16").toArray())
        if (v.isString() && !v.toString().isEmpty()) s.int16 << v.toString();
    for (const QJsonValue& v : state.value("float").toArray())
        if (v.isString() && !v.toString().isEmpty() && !s.int16.contains(v.toString()))
            s.floatLayers << v.toString();
    return s;
}

}  // namespace qatdoctor::ui
