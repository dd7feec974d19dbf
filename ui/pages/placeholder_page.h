// A page that is not built yet: says so clearly instead of showing an empty area.
#pragma once

#include "ui/pages/page.h"

class QLabel;

namespace qatdoctor::ui {

class PlaceholderPage : public Page {
    Q_OBJECT
public:
    PlaceholderPage(AppContext* context, QString id, QString title, QString explanation, QWidget* parent = nullptr);
    QString id() const override { return m_id; }
    QString title() const override { return m_title; }

private:
    QString m_id;
    QString m_title;
};

}  // namespace qatdoctor::ui
