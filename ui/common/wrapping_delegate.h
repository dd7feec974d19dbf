// Rows as tall as their wrapped text: QTreeView asks a delegate for a row's height without the
// column's width, so long text stays on one line and is cut with "…". This delegate measures
// the text wrapped at the column's width (titles in Chinese and English read whole).
#pragma once

#include <QStyledItemDelegate>
#include <QTreeView>
#include <algorithm>

namespace qatdoctor::ui {

class WrappingDelegate : public QStyledItemDelegate {
public:
    explicit WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), m_view(view) {}

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        int width = m_view->columnWidth(index.column());
        if (index.column() == 0)  // the tree's branch indentation takes part of the first column
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) width -= m_view->indentation();
        const int textWidth = std::max(40, width - 12);
        const QRect text =
            opt.fontMetrics.boundingRect(QRect(0, 0, textWidth, 100000), Qt::TextWordWrap, opt.text);
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        size.setHeight(std::max(size.height(), text.height() + 6));
        return size;
    }

private:
    QTreeView* m_view;
};

}  // namespace qatdoctor::ui
