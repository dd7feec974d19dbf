// The one list of pages, in sidebar order. Adding a page = one row in page_registry.cpp.
#pragma once

#include <vector>

#include "ui/pages/page.h"

namespace qatdoctor::ui {

std::vector<Page*> createPages(AppContext* context, QWidget* parent);

}  // namespace qatdoctor::ui
