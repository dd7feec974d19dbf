// What the Fixed-point page keeps in a session (its page state): the settings of the last
// simulation and the model it ran on. A reopened session simulates the same way again in the
// background, so the page and the report have their answer without a click.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace qatdoctor::ui {

struct SimulationSettings {
    QString model;    // the ONNX file simulated
    QString input;    // "" = seeded random input
    int requant = 0;  // core::fixedpoint::RequantMode
    int colour = 0;   // core::fixedpoint::ColourFormat of an image input
    int threads = 1;
    bool sensitivity = false;
    QStringList int16;        // layers ticked for the int16 what-if
    QStringList floatLayers;  // layers ticked for the float what-if

    QJsonObject toJson() const;
    // nullopt for a state without a model (never simulated, or hand-edited into nonsense).
    static std::optional<SimulationSettings> fromJson(const QJsonObject& state);
};

}  // namespace qatdoctor::ui
