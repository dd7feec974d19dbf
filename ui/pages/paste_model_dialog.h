// "Paste printed model": a plain-text box for the output of `print(qat_model)`, with a live
// summary of what QAT Doctor reads from it (layers, quantizers, first findings). The text is
// never executed. The main window adds the returned text as an input (see askForPrintedModel).
#pragma once

#include <QDialog>
#include <optional>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QTimer;

namespace qatdoctor::ui {

class PasteModelDialog : public QDialog {
    Q_OBJECT
public:
    explicit PasteModelDialog(QWidget* parent = nullptr);

    QString text() const;
    void setText(const QString& text);
    QString summary() const;  // the status line shown under the text box

private:
    void updateSummary();

    QPlainTextEdit* m_edit;
    QLabel* m_status;
    QDialogButtonBox* m_buttons;
    QTimer* m_debounce;
};

// Shows the dialog; the pasted text when the user accepts it with something readable, nullopt on
// cancel. Typical use in the main window:
//   if (auto text = askForPrintedModel(this)) {
//       auto path = core::artifacts::savePastedText(text->toStdString(), sessionFolder);
//       if (path) addInputs({QString::fromStdString(*path)});   // loaded like any dropped file
//   }
std::optional<QString> askForPrintedModel(QWidget* parent);

}  // namespace qatdoctor::ui
