// A page of the main window (Overview, Symptom wizard, Training curves, Model, Fixed-point,
// Report). Pages read the shared Analysis from the AppContext and react to its signals; they
// never run analysis logic themselves (background work goes through BackgroundJob).
#pragma once

#include <QIcon>
#include <QString>
#include <QWidget>

#include "ui/common/app_context.h"

namespace qatdoctor::ui {

class Page : public QWidget {
    Q_OBJECT
public:
    Page(AppContext* context, QWidget* parent = nullptr) : QWidget(parent), m_context(context) {}

    virtual QString id() const = 0;     // stable id: "overview", "wizard", "curves", ...
    virtual QString title() const = 0;  // tr()'d sidebar label
    virtual QIcon icon() const { return {}; }

    // Show something specific (a step on a curve, a layer, a FAQ topic). Default: nothing.
    virtual void focusOn(const NavigationTarget& target) { Q_UNUSED(target); }

protected:
    AppContext* context() const { return m_context; }

private:
    AppContext* m_context;
};

}  // namespace qatdoctor::ui
